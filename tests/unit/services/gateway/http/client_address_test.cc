#include "services/gateway/http/client_address.h"

#include <catch2/catch.hpp>

using feedback::gateway::ClientAddresses;
using feedback::gateway::HttpRequest;

namespace {

HttpRequest from(std::string peer, std::string forwarded = {}) {
  HttpRequest request;
  request.remote_address = std::move(peer);
  if (!forwarded.empty()) request.headers.emplace_back("x-forwarded-for", std::move(forwarded));
  return request;
}

}  // namespace

TEST_CASE("client address: the socket's peer unless it is a trusted proxy", "[http]") {
  ClientAddresses none;
  CHECK(none.of(from("203.0.113.7", "198.51.100.1")) == "203.0.113.7");

  ClientAddresses proxies({"10.0.0.0/8", "::1", "fd00::/8"});
  CHECK(proxies.of(from("203.0.113.7", "198.51.100.1")) == "203.0.113.7");
  CHECK(proxies.of(from("10.1.2.3", "198.51.100.1")) == "198.51.100.1");
  // Through two proxies we trust; what the client wrote itself (the leftmost) is ignored.
  CHECK(proxies.of(from("10.1.2.3", "6.6.6.6, 198.51.100.1, 10.0.0.5")) == "198.51.100.1");
  CHECK(proxies.of(from("::1", "2001:db8::1")) == "2001:db8::1");
  CHECK(proxies.of(from("fd12::5", "203.0.113.9")) == "203.0.113.9");
  // A trusted proxy that sent no header, or nonsense: the proxy is the client.
  CHECK(proxies.of(from("10.1.2.3")) == "10.1.2.3");
  CHECK(proxies.of(from("10.1.2.3", "not-an-address")) == "10.1.2.3");
  // Every hop trusted: the farthest one.
  CHECK(proxies.of(from("10.1.2.3", "10.9.9.9")) == "10.9.9.9");
}

TEST_CASE("client address: CIDR blocks match by prefix", "[http]") {
  ClientAddresses blocks({"192.168.4.0/22", "2001:db8:abcd::/48", "0.0.0.0/0"});
  CHECK(blocks.trusted("192.168.7.255"));
  CHECK(blocks.trusted("8.8.8.8"));  // 0.0.0.0/0 trusts every IPv4 address
  CHECK_FALSE(ClientAddresses({"192.168.4.0/22"}).trusted("192.168.8.0"));
  CHECK(ClientAddresses({"2001:db8:abcd::/48"}).trusted("2001:db8:abcd:ffff::1"));
  CHECK_FALSE(ClientAddresses({"2001:db8:abcd::/48"}).trusted("2001:db8:abce::1"));
  CHECK_FALSE(ClientAddresses({"10.0.0.0/8"}).trusted("garbage"));
}

TEST_CASE("client address: a malformed trusted list is refused at start-up", "[http]") {
  CHECK_THROWS_AS(ClientAddresses({"10.0.0.0/33"}), std::invalid_argument);
  CHECK_THROWS_AS(ClientAddresses({"10.0.0/8"}), std::invalid_argument);
  CHECK_THROWS_AS(ClientAddresses({"::1/129"}), std::invalid_argument);
  CHECK_THROWS_AS(ClientAddresses({"proxy.local"}), std::invalid_argument);
  CHECK(feedback::gateway::splitList(" 10.0.0.0/8, ,::1 ") ==
        std::vector<std::string>{"10.0.0.0/8", "::1"});
}

TEST_CASE("client address: a trusted proxy may name the host the client asked for", "[http]") {
  auto request = [](std::string peer, std::string forwarded_host) {
    HttpRequest r;
    r.remote_address = std::move(peer);
    r.headers.emplace_back("host", "gateway.internal:8080");
    if (!forwarded_host.empty())
      r.headers.emplace_back("x-forwarded-host", std::move(forwarded_host));
    return r;
  };
  ClientAddresses proxies({"10.0.0.0/8"});
  CHECK(proxies.hostOf(request("10.1.2.3", "acme.feedback.example.com")) ==
        "acme.feedback.example.com");
  // What the client wrote itself, before the proxy's own, is not believed.
  CHECK(proxies.hostOf(
            request("10.1.2.3", "other.feedback.example.com, acme.feedback.example.com")) ==
        "acme.feedback.example.com");
  CHECK(proxies.hostOf(request("10.1.2.3", "")) == "gateway.internal:8080");
  // Anyone else's is ignored: a client cannot pick another workspace this way.
  CHECK(proxies.hostOf(request("203.0.113.7", "other.feedback.example.com")) ==
        "gateway.internal:8080");
  CHECK(ClientAddresses().hostOf(request("10.1.2.3", "other.example.com")) ==
        "gateway.internal:8080");
}
