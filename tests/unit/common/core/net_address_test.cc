#include "common/core/net_address.h"

#include <catch2/catch.hpp>

TEST_CASE("net address: private and loopback hosts", "[net]") {
  for (const char* host : {"localhost", "api.localhost", "127.0.0.1", "10.1.2.3", "172.16.0.1",
                           "172.31.255.255", "192.168.1.1", "169.254.169.254", "0.0.0.0",
                           "100.64.0.1", "[::1]", "::", "fd00::1", "fe80::1", "::ffff:127.0.0.1"}) {
    INFO(host);
    CHECK(feedback::isPrivateHost(host));
  }
  for (const char* host :
       {"example.com", "8.8.8.8", "172.32.0.1", "2001:4860::8888", "[2606:4700::1]"}) {
    INFO(host);
    CHECK_FALSE(feedback::isPrivateHost(host));
  }
}
