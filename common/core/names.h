#pragma once
// The forms of the names the API puts in paths (docs/api.md "Limits") and in hosts: the
// services accept only these, and the gateway refuses anything else before any backend call.

#include <cstddef>
#include <string>
#include <string_view>

namespace feedback {

inline constexpr std::size_t kMaxSlugLength = 64;
inline constexpr std::size_t kMaxFieldKeyLength = 64;

// ^[a-z0-9]+(-[a-z0-9]+)*$, at most kMaxSlugLength characters.
bool isValidSlug(std::string_view slug);
// ^[a-z0-9]+(_[a-z0-9]+)*$, at most kMaxFieldKeyLength characters.
bool isValidFieldKey(std::string_view key);

// The lowercase ASCII letters and digits of `text` with each run of anything else as one
// `separator`, cut to at most `limit` characters, no separator at either end (empty when
// `text` has no letter or digit): a slug, field key or subdomain made from a name or prompt.
std::string nameToSlug(std::string_view text, char separator, std::size_t limit);

// A workspace's subdomain: lowercase letters, digits and inner hyphens, at most 63.
bool isValidSubdomain(std::string_view subdomain);
// A workspace's public host is <subdomain>.<suffix> (docs/api.md "Public hosts and URLs"): the
// part of `host` (a Host header: any case, optional port and trailing dot) before `.suffix`,
// in lowercase; empty when `host` is not under `suffix`. Not checked with isValidSubdomain.
std::string subdomainOfHost(std::string_view host, std::string_view suffix);

}  // namespace feedback
