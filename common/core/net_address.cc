#include "common/core/net_address.h"

#include <arpa/inet.h>

#include <cstdint>
#include <string>

namespace feedback {
namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool privateV4(uint32_t a) {
  auto in = [a](uint32_t net, int bits) { return (a >> (32 - bits)) == (net >> (32 - bits)); };
  return in(0x00000000, 8) || in(0x0A000000, 8) || in(0x7F000000, 8) || in(0xA9FE0000, 16) ||
         in(0xAC100000, 12) || in(0xC0A80000, 16) || in(0x64400000, 10) || a == 0xFFFFFFFF;
}

}  // namespace

bool isPrivateHost(std::string_view host) {
  std::string h(host);
  for (auto& c : h) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!h.empty() && h.back() == '.') h.pop_back();
  if (h == "localhost" || endsWith(h, ".localhost")) return true;
  if (h.size() > 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  in_addr v4{};
  if (inet_pton(AF_INET, h.c_str(), &v4) == 1) return privateV4(ntohl(v4.s_addr));
  in6_addr v6{};
  if (inet_pton(AF_INET6, h.c_str(), &v6) == 1) {
    const uint8_t* b = v6.s6_addr;
    bool zero_prefix = true;
    for (int i = 0; i < 10; ++i) zero_prefix = zero_prefix && b[i] == 0;
    if (zero_prefix && b[10] == 0xff && b[11] == 0xff) {  // IPv4-mapped
      return privateV4((uint32_t(b[12]) << 24) | (uint32_t(b[13]) << 16) | (uint32_t(b[14]) << 8) |
                       b[15]);
    }
    bool all_zero_but_last =
        zero_prefix && b[10] == 0 && b[11] == 0 && b[12] == 0 && b[13] == 0 && b[14] == 0;
    if (all_zero_but_last && (b[15] == 0 || b[15] == 1)) return true;  // :: and ::1
    if ((b[0] & 0xfe) == 0xfc) return true;                            // fc00::/7
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return true;            // fe80::/10
    return false;
  }
  return false;
}

}  // namespace feedback
