#pragma once
// The forms of the names the API puts in paths (API-CONTRACT.md section 2): the links service
// accepts only these, and the gateway's router refuses anything else before any backend call.

#include <cstddef>
#include <string_view>

namespace feedback {

inline constexpr std::size_t kMaxSlugLength = 64;
inline constexpr std::size_t kMaxFieldKeyLength = 64;

// ^[a-z0-9]+(-[a-z0-9]+)*$, at most kMaxSlugLength characters.
bool isValidSlug(std::string_view slug);
// ^[a-z0-9]+(_[a-z0-9]+)*$, at most kMaxFieldKeyLength characters.
bool isValidFieldKey(std::string_view key);

}  // namespace feedback
