#pragma once
// The address of the client behind a request, for per-client limits: the socket's peer, or
// when that peer is a trusted proxy (a load balancer or ingress in front of the gateway), the
// address it reports in X-Forwarded-For. The header is read from the right, the way proxies
// append to it, and only through trusted hops: whatever a client writes into it itself is
// never believed.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "services/gateway/http/message.h"

namespace feedback::gateway {

class ClientAddresses {
 public:
  // `trusted`: addresses and CIDR blocks, IPv4 or IPv6 ("10.0.0.0/8", "::1").
  // Throws std::invalid_argument naming the first one that is not.
  explicit ClientAddresses(const std::vector<std::string>& trusted = {});

  std::string of(const HttpRequest& request) const;
  // The host the client asked for: Host, or when the peer is a trusted proxy that names it,
  // the last X-Forwarded-Host (the one that proxy wrote: a proxy that rewrites Host keeps the
  // original there; what a client wrote itself comes before it).
  std::string_view hostOf(const HttpRequest& request) const;
  bool trusted(std::string_view address) const;

 private:
  struct Block {
    std::array<uint8_t, 16> bytes{};  // IPv4 as IPv4-mapped IPv6
    int prefix = 128;
  };
  static std::optional<std::array<uint8_t, 16>> parse(std::string_view address);
  std::vector<Block> trusted_;
};

// "a, b, c" split on commas, each entry trimmed; empty entries dropped.
std::vector<std::string> splitList(std::string_view text);

}  // namespace feedback::gateway
