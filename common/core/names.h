#pragma once
// The forms of the names the API puts in paths (API-CONTRACT.md section 2) and in hosts: the
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

// A workspace's subdomain: lowercase letters, digits and inner hyphens, at most 63.
bool isValidSubdomain(std::string_view subdomain);
// A workspace's public host is <subdomain>.<suffix> (API-CONTRACT.md section 5): the part of
// `host` (a Host header: any case, optional port and trailing dot) before `.suffix`, in
// lowercase; empty when `host` is not under `suffix`. Not checked with isValidSubdomain.
std::string subdomainOfHost(std::string_view host, std::string_view suffix);

}  // namespace feedback
