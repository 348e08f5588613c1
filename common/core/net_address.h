#pragma once

#include <string_view>

namespace feedback {

// True for a host that must not receive server-side requests unless explicitly allowed:
// "localhost" names and loopback, private, link-local, carrier-grade NAT, unspecified and
// unique-local IPv4/IPv6 literals. Other names are checked again when they are resolved.
bool isPrivateHost(std::string_view host);

}  // namespace feedback
