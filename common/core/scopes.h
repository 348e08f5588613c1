#pragma once
// The scope table (docs/api.md "Authentication and scopes"): the one list of scopes an API key
// can hold.

#include <algorithm>
#include <array>
#include <string_view>

namespace feedback::scopes {

inline constexpr std::string_view kLinksRead = "links:read";
inline constexpr std::string_view kLinksWrite = "links:write";
inline constexpr std::string_view kResponsesRead = "responses:read";
// Deleting responses and erasing respondents (docs/api.md "Erasure and retention").
inline constexpr std::string_view kResponsesWrite = "responses:write";
inline constexpr std::string_view kWebhooksRead = "webhooks:read";
inline constexpr std::string_view kWebhooksWrite = "webhooks:write";
inline constexpr std::string_view kTokensRead = "tokens:read";
inline constexpr std::string_view kTokensWrite = "tokens:write";

inline constexpr std::array<std::string_view, 8> kAll = {
    kLinksRead,    kLinksWrite,    kResponsesRead, kResponsesWrite,
    kWebhooksRead, kWebhooksWrite, kTokensRead,    kTokensWrite};

inline bool isKnown(std::string_view scope) {
  return std::find(kAll.begin(), kAll.end(), scope) != kAll.end();
}

// True when `held` (any range of strings) contains `needed`.
template <class Range>
bool holds(const Range& held, std::string_view needed) {
  for (const auto& s : held) {
    if (std::string_view(s) == needed) return true;
  }
  return false;
}

}  // namespace feedback::scopes
