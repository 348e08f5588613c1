#include "common/core/net_address.h"

#include <arpa/inet.h>

#include <array>
#include <catch2/catch.hpp>
#include <string>

namespace {

void checkRefused(std::initializer_list<const char*> hosts) {
  for (const char* host : hosts) {
    INFO(host);
    CHECK(feedback::isPrivateHost(host));
  }
}

void checkAllowed(std::initializer_list<const char*> hosts) {
  for (const char* host : hosts) {
    INFO(host);
    CHECK_FALSE(feedback::isPrivateHost(host));
  }
}

}  // namespace

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

TEST_CASE("net address: every IPv4 range, its first and last address and its neighbours", "[net]") {
  struct Range {
    const char* first;
    const char* last;
    const char* before;  // nullptr: the range starts at 0.0.0.0
    const char* after;   // nullptr: the range ends at 255.255.255.255
  };
  const Range ranges[] = {
      {"0.0.0.0", "0.255.255.255", nullptr, "1.0.0.0"},
      {"10.0.0.0", "10.255.255.255", "9.255.255.255", "11.0.0.0"},
      {"100.64.0.0", "100.127.255.255", "100.63.255.255", "100.128.0.0"},
      {"127.0.0.0", "127.255.255.255", "126.255.255.255", "128.0.0.0"},
      {"169.254.0.0", "169.254.255.255", "169.253.255.255", "169.255.0.0"},
      {"172.16.0.0", "172.31.255.255", "172.15.255.255", "172.32.0.0"},
      {"192.0.0.0", "192.0.0.255", "191.255.255.255", "192.0.1.0"},
      {"192.0.2.0", "192.0.2.255", "192.0.1.255", "192.0.3.0"},
      {"192.88.99.0", "192.88.99.255", "192.88.98.255", "192.88.100.0"},
      {"192.168.0.0", "192.168.255.255", "192.167.255.255", "192.169.0.0"},
      {"198.18.0.0", "198.19.255.255", "198.17.255.255", "198.20.0.0"},
      {"198.51.100.0", "198.51.100.255", "198.51.99.255", "198.51.101.0"},
      {"203.0.113.0", "203.0.113.255", "203.0.112.255", "203.0.114.0"},
      {"224.0.0.0", "239.255.255.255", "223.255.255.255", nullptr},
      {"240.0.0.0", "255.255.255.255", nullptr, nullptr},
  };
  for (const auto& r : ranges) {
    INFO(r.first);
    CHECK(feedback::isPrivateHost(r.first));
    CHECK(feedback::isPrivateHost(r.last));
    // 223.255.255.255 and 1.0.0.0 sit between two ranges; their other side is checked there.
    if (r.before) CHECK_FALSE(feedback::isPrivateHost(r.before));
    if (r.after) CHECK_FALSE(feedback::isPrivateHost(r.after));
  }
  checkRefused({"127.0.0.1", "10.0.0.1", "100.64.0.1", "169.254.169.254", "224.0.0.1",
                "255.255.255.255", "192.0.0.8", "198.18.0.1"});
  checkAllowed({"8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "93.184.216.34"});
}

TEST_CASE("net address: IPv4 spellings that getaddrinfo accepts", "[net]") {
  checkRefused({
      "2130706433",           // 127.0.0.1 as one decimal number
      "0x7f000001",           // hex
      "0X7F000001",           // any case
      "017700000001",         // octal
      "0177.0.0.1",           // octal part
      "0x7f.0.0.1",           // hex part
      "0x7f.0x0.0x0.0x1",     // hex parts
      "127.1",                // two parts: the last fills three bytes
      "0x7f.1",               // two parts, hex
      "127.0.1",              // three parts: the last fills two bytes
      "10.1",                 // 10.0.0.1
      "167772161",            // 10.0.0.1
      "2852039166",           // 169.254.169.254
      "0xa9.0xfe.0xa9.0xfe",  // 169.254.169.254
      "0",                    // 0.0.0.0
      "4294967295",           // 255.255.255.255
      "127.0.0.1.",           // trailing dot
      "2130706433.",          // trailing dot
  });
  checkAllowed({
      "134744072",   // 8.8.8.8
      "0x08080808",  // 8.8.8.8
      "1.1",         // 1.0.0.1
      "0127.0.0.1",  // octal 0127 is 87: 87.0.0.1
  });
}

TEST_CASE("net address: names are not read as numbers", "[net]") {
  // Names that merely look numeric stay names: the resolver decides what they are, and
  // isPrivateAddress checks the result at registration and at connect time.
  checkAllowed({"example.com", "deadbeef.com", "1e100.net", "deadbeef", "cafe.be", "0x7f.example",
                "1.2.3.4.nip.io", "127.0.0.1.nip.io", "4294967296", "1.2.3.4.5", "08.0.0.1", "0x",
                "", ".", "notlocalhost", "localhost.example.com", "google.internal",
                "metadata.google.internal.example.com"});
}

TEST_CASE("net address: IPv6 ranges and embedded IPv4 addresses", "[net]") {
  checkRefused({
      "::",
      "::1",
      "[::1]",
      "[::1].",
      "0:0:0:0:0:0:0:1",
      "::127.0.0.1",         // IPv4-compatible
      "::8.8.8.8",           // IPv4-compatible: deprecated, refused whatever it embeds
      "::ffff:127.0.0.1",    // IPv4-mapped
      "[::ffff:7f00:1]",     // IPv4-mapped, hex
      "::ffff:10.0.0.1",     // IPv4-mapped
      "::ffff:a9fe:a9fe",    // IPv4-mapped 169.254.169.254
      "::ffff:0:127.0.0.1",  // IPv4-translated
      "64:ff9b::7f00:1",     // NAT64 of 127.0.0.1
      "64:ff9b::169.254.169.254",
      "64:ff9b:1::1",     // local-use NAT64
      "2002:7f00:1::",    // 6to4 of 127.0.0.1
      "2002:a00:1::1",    // 6to4 of 10.0.0.1
      "2002:c0a8:101::",  // 6to4 of 192.168.1.1
      "100::1",           // discard-only
      "100::ffff:ffff:ffff:ffff",
      "2001::1",                               // Teredo
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",  // Teredo, a real-looking one
      "2001:2::1",                             // benchmarking
      "2001:db8::1",                           // documentation
      "2001:db8:ffff::1",
      "3fff::1",  // documentation (RFC 9637)
      "fc00::1",  // unique local
      "fd00::1",
      "fdff:ffff::1",
      "fe80::1",  // link-local
      "FE80::1",
      "febf:ffff::1",
      "fec0::1",  // site-local
      "feff::1",
      "ff02::1",  // multicast
      "ff0e::1",
      "fe80::1%eth0",  // with a zone
      "[fe80::1%25eth0]",
  });
  checkAllowed({
      "2606:4700::1111", "[2606:4700::1111]", "2001:4860:4860::8888",
      "::ffff:8.8.8.8",    // IPv4-mapped public address
      "64:ff9b::808:808",  // NAT64 of 8.8.8.8
      "2002:808:808::1",   // 6to4 of 8.8.8.8
      "100:0:0:1::1",      // just after 100::/64
      "2001:db9::1",       // just after 2001:db8::/32
      "2001:db7:ffff::1",  // just before it
      "2003::1",           // just after 2002::/16
  });
}

TEST_CASE("net address: localhost and metadata names", "[net]") {
  checkRefused({"localhost", "LOCALHOST", "localhost.", "api.localhost", "a.b.LocalHost.",
                "metadata.google.internal", "Metadata.Google.Internal."});
}

TEST_CASE("net address: raw addresses", "[net]") {
  using V4 = std::array<unsigned char, 4>;
  using V6 = std::array<unsigned char, 16>;
  auto v4 = [](V4 b) { return feedback::isPrivateAddress(b.data(), b.size()); };
  auto v6 = [](V6 b) { return feedback::isPrivateAddress(b.data(), b.size()); };
  CHECK(v4({127, 0, 0, 1}));
  CHECK(v4({10, 0, 0, 1}));
  CHECK(v4({169, 254, 169, 254}));
  CHECK(v4({0, 0, 0, 0}));
  CHECK(v4({255, 255, 255, 255}));
  CHECK_FALSE(v4({8, 8, 8, 8}));
  CHECK_FALSE(v4({1, 1, 1, 1}));
  CHECK(v6({}));                                                              // ::
  CHECK(v6({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}));                // ::1
  CHECK(v6({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1}));         // ::ffff:10.0.0.1
  CHECK(v6({0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, 127, 0, 0, 1}));  // NAT64
  CHECK(v6({0x20, 0x02, 127, 0, 0, 1}));                                      // 6to4
  CHECK(v6({0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}));          // fe80::1
  CHECK_FALSE(v6({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 8, 8, 8, 8}));    // ::ffff:8.8.8.8
  CHECK_FALSE(v6({0x26, 0x06, 0x47, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11, 0x11}));
  // Anything that is not an IPv4 or IPv6 address cannot be vetted, so it is refused.
  const unsigned char five[5] = {8, 8, 8, 8, 8};
  CHECK(feedback::isPrivateAddress(five, 5));
  CHECK(feedback::isPrivateAddress(five, 0));
  CHECK(feedback::isPrivateAddress(nullptr, 4));
}

TEST_CASE("net address: a host and its resolved address get the same answer", "[net]") {
  for (const char* host : {"127.0.0.1", "8.8.8.8", "100.64.0.1", "100.128.0.1", "224.0.0.1", "::1",
                           "::ffff:127.0.0.1", "2002:7f00:1::", "2606:4700::1111"}) {
    INFO(host);
    std::array<unsigned char, 16> bytes{};
    std::size_t size = inet_pton(AF_INET, host, bytes.data()) == 1 ? 4 : 16;
    if (size == 16) REQUIRE(inet_pton(AF_INET6, host, bytes.data()) == 1);
    CHECK(feedback::isPrivateHost(host) == feedback::isPrivateAddress(bytes.data(), size));
  }
}
