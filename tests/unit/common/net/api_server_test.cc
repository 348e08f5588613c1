#include "common/net/api_server.h"

#include <catch2/catch.hpp>

namespace net = feedback::net;

TEST_CASE("api servers: base URLs, plain http allowed, the bearer only with a key", "[net]") {
  CHECK(net::isHttpUrl("http://127.0.0.1:8000/v1"));
  CHECK(net::isHttpUrl("https://api.example.com/v1/"));
  for (const char* bad : {"", "127.0.0.1:8000/v1", "ftp://host/v1", "http:///v1", "/v1"}) {
    INFO(bad);
    CHECK_FALSE(net::isHttpUrl(bad));
  }
  CHECK(net::trimmedBaseUrl("http://h/v1//") == "http://h/v1");
  CHECK(net::trimmedBaseUrl("http://h/v1") == "http://h/v1");
  const auto http = net::apiServerSettings("ca.pem", std::chrono::milliseconds(1500), 4096);
  CHECK(http.allow_plain_http);
  CHECK(http.ca_bundle == "ca.pem");
  CHECK(http.timeout == std::chrono::milliseconds(1500));
  CHECK((http.excerpt_limit == 4096 && http.body_limit == 4096));
  net::HttpRequest request;
  net::addBearer(request, "");
  CHECK(request.headers.empty());
  net::addBearer(request, "sk-1");
  REQUIRE(request.headers.size() == 1);
  CHECK(request.headers[0] == std::pair<std::string, std::string>{"Authorization", "Bearer sk-1"});
}
