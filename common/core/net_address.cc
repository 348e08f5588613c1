#include "common/core/net_address.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>

#include "common/core/ascii.h"

namespace feedback {
namespace {

// The first `bits` bits of `bytes` (IPv4: only the first 4 bytes are used).
struct Prefix {
  std::array<uint8_t, 16> bytes;
  int bits;
};

// IPv4 ranges that are not public unicast (IANA special-purpose registry, RFC 6890).
constexpr Prefix kRefusedV4[] = {
    {{0}, 8},              // "this network"; 0.0.0.0 reaches the local host on Linux
    {{10}, 8},             // private
    {{100, 64}, 10},       // carrier-grade NAT
    {{127}, 8},            // loopback
    {{169, 254}, 16},      // link-local, cloud metadata at 169.254.169.254
    {{172, 16}, 12},       // private
    {{192, 0, 0}, 24},     // IETF protocol assignments
    {{192, 0, 2}, 24},     // documentation (TEST-NET-1)
    {{192, 88, 99}, 24},   // 6to4 relay anycast (deprecated): a relay near the sender
    {{192, 168}, 16},      // private
    {{198, 18}, 15},       // benchmarking
    {{198, 51, 100}, 24},  // documentation (TEST-NET-2)
    {{203, 0, 113}, 24},   // documentation (TEST-NET-3)
    {{224}, 4},            // multicast
    {{240}, 4},            // reserved, with the broadcast address 255.255.255.255
};

// IPv6 ranges refused whatever follows the prefix.
constexpr Prefix kRefusedV6[] = {
    // ::, ::1 and the deprecated IPv4-compatible addresses, which some stacks still tunnel to
    // the embedded IPv4 address; none is a legitimate target.
    {{}, 96},
    {{0x00, 0x64, 0xff, 0x9b, 0x00, 0x01}, 48},  // local-use NAT64 (RFC 8215): a local gateway
    {{0x01, 0x00}, 64},                          // discard-only
    {{0x20, 0x01, 0x00, 0x00}, 32},              // Teredo: tunnels to an obfuscated IPv4
    {{0x20, 0x01, 0x00, 0x02}, 48},              // benchmarking
    {{0x20, 0x01, 0x0d, 0xb8}, 32},              // documentation
    {{0x3f, 0xff}, 20},                          // documentation (RFC 9637)
    {{0xfc}, 7},                                 // unique local
    {{0xfe, 0x80}, 10},                          // link-local
    {{0xfe, 0xc0}, 10},                          // site-local (deprecated, still routable)
    {{0xff}, 8},                                 // multicast
};

// IPv6 ranges whose packets reach the IPv4 address embedded at `offset`, so that address
// decides.
struct Embedding {
  Prefix prefix;
  std::size_t offset;
};
constexpr Embedding kEmbeddedV4[] = {
    {{{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}, 96}, 12},  // IPv4-mapped ::ffff:a.b.c.d
    {{{0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0}, 96}, 12},  // IPv4-translated (SIIT)
    {{{0x00, 0x64, 0xff, 0x9b}, 96}, 12},                    // NAT64 64:ff9b::a.b.c.d
    {{{0x20, 0x02}, 16}, 2},                                 // 6to4 2002:AABB:CCDD::
};

bool matches(const unsigned char* address, const Prefix& prefix) {
  auto whole = static_cast<std::size_t>(prefix.bits / 8);
  if (std::memcmp(address, prefix.bytes.data(), whole) != 0) return false;
  int rest = prefix.bits % 8;
  if (rest == 0) return true;
  auto mask = static_cast<uint8_t>(0xff << (8 - rest));
  return (address[whole] & mask) == (prefix.bytes[whole] & mask);
}

bool matchesAny(const unsigned char* address, const auto& prefixes) {
  return std::any_of(std::begin(prefixes), std::end(prefixes),
                     [address](const Prefix& p) { return matches(address, p); });
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Only such strings go to inet_aton, so that a DNS name is never read as a number; inet_aton
// itself rejects the ones that are not numbers ("deadbeef", "cafe.be").
bool looksNumeric(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == 'x' || c == '.';
  });
}

}  // namespace

bool isPrivateAddress(const unsigned char* bytes, std::size_t size) {
  if (bytes == nullptr) return true;
  if (size == 4) return matchesAny(bytes, kRefusedV4);
  if (size != 16) return true;
  if (matchesAny(bytes, kRefusedV6)) return true;
  for (const auto& e : kEmbeddedV4) {
    if (matches(bytes, e.prefix)) return isPrivateAddress(bytes + e.offset, 4);
  }
  return false;
}

bool isPrivateHost(std::string_view host) {
  std::string h = asciiLowercase(host);
  while (!h.empty() && h.back() == '.') h.pop_back();
  if (h == "localhost" || endsWith(h, ".localhost") || h == "metadata.google.internal") {
    return true;
  }
  if (h.size() > 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  in_addr v4{};
  if (inet_pton(AF_INET, h.c_str(), &v4) == 1) {
    return isPrivateAddress(reinterpret_cast<const unsigned char*>(&v4.s_addr), 4);
  }
  in6_addr v6{};
  if (inet_pton(AF_INET6, h.c_str(), &v6) == 1) return isPrivateAddress(v6.s6_addr, 16);
  // getaddrinfo accepts a zone ("fe80::1%eth0"), which only link-local and multicast
  // addresses use.
  if (auto zone = h.find('%'); zone != std::string::npos) {
    if (inet_pton(AF_INET6, h.substr(0, zone).c_str(), &v6) == 1) return true;
  }
  // The other IPv4 spellings that getaddrinfo accepts through inet_aton: one to four parts,
  // each decimal, octal (leading 0) or hex (0x), the last one filling the remaining bytes.
  if (looksNumeric(h) && inet_aton(h.c_str(), &v4) != 0) {
    return isPrivateAddress(reinterpret_cast<const unsigned char*>(&v4.s_addr), 4);
  }
  return false;
}

bool anyPrivateAddress(const addrinfo* list) {
  for (const addrinfo* a = list; a; a = a->ai_next) {
    if (a->ai_family == AF_INET) {
      const auto* in = reinterpret_cast<const sockaddr_in*>(a->ai_addr);
      if (isPrivateAddress(reinterpret_cast<const unsigned char*>(&in->sin_addr), 4)) return true;
    } else if (a->ai_family == AF_INET6) {
      const auto* in = reinterpret_cast<const sockaddr_in6*>(a->ai_addr);
      if (isPrivateAddress(in->sin6_addr.s6_addr, 16)) return true;
    }
  }
  return false;
}

}  // namespace feedback
