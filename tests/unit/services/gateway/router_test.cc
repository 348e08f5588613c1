#include "services/gateway/http/router.h"

#include <catch2/catch.hpp>

using namespace feedback::gateway;
using TestRouter = Router<int>;

namespace {
TestRouter sample() {
  TestRouter r;
  r.add(Method::kGet, "/v1/links/", "links:read", 1);
  r.add(Method::kPost, "/v1/links/", "links:write", 2);
  r.add(Method::kGet, "/v1/links/{uuid}/", "links:read", 3);
  r.add(Method::kDelete, "/v1/links/{uuid}/", "links:write", 4);
  r.add(Method::kGet, "/v1/links/{uuid}/responses/{uuid}/", "responses:read", 5);
  return r;
}
constexpr const char* kUuid = "123e4567-e89b-42d3-a456-426614174000";
}  // namespace

TEST_CASE("router: exact routes and path parameters", "[router]") {
  auto r = sample();
  auto list = r.resolve("GET", "/v1/links/");
  REQUIRE(list.outcome == TestRouter::Outcome::kFound);
  CHECK(list.route->handler == 1);
  CHECK(list.route->scope == "links:read");
  auto detail = r.resolve("GET", std::string("/v1/links/") + kUuid + "/responses/" + kUuid + "/");
  REQUIRE(detail.outcome == TestRouter::Outcome::kFound);
  CHECK(detail.route->handler == 5);
  CHECK(detail.params == std::vector<std::string>{kUuid, kUuid});
}

TEST_CASE("router: a missing trailing slash redirects only where a route exists", "[router]") {
  auto r = sample();
  CHECK(r.resolve("GET", "/v1/links").outcome == TestRouter::Outcome::kRedirect);
  CHECK(r.resolve("PUT", "/v1/links").outcome == TestRouter::Outcome::kRedirect);
  CHECK(r.resolve("GET", std::string("/v1/links/") + kUuid).outcome ==
        TestRouter::Outcome::kRedirect);
  CHECK(r.resolve("GET", "/v1/no-such-thing").outcome == TestRouter::Outcome::kNotFound);
}

TEST_CASE("router: unknown paths and malformed UUIDs are 404", "[router]") {
  auto r = sample();
  CHECK(r.resolve("GET", "/v1/no-such-thing/").outcome == TestRouter::Outcome::kNotFound);
  CHECK(r.resolve("GET", "/v1/links/extra/segments/here/").outcome ==
        TestRouter::Outcome::kNotFound);
  CHECK(r.resolve("GET", "/v1/links/not-a-uuid/").outcome == TestRouter::Outcome::kNotFound);
  CHECK(r.resolve("PUT", "/v1/links/not-a-uuid/").outcome == TestRouter::Outcome::kNotFound);
  CHECK(r.resolve("GET", "/v1/links/123E4567-E89B-42D3-A456-426614174000/").outcome ==
        TestRouter::Outcome::kNotFound);
  CHECK(r.resolve("GET", "/v1/links//").outcome == TestRouter::Outcome::kNotFound);
  CHECK(r.resolve("GET", "").outcome == TestRouter::Outcome::kNotFound);
}

TEST_CASE("router: a wrong method is 405 with the allowed ones", "[router]") {
  auto r = sample();
  auto put = r.resolve("PUT", "/v1/links/");
  CHECK(put.outcome == TestRouter::Outcome::kMethodNotAllowed);
  CHECK(put.allow == "GET, POST");
  auto patch = r.resolve("BREW", std::string("/v1/links/") + kUuid + "/");
  CHECK(patch.outcome == TestRouter::Outcome::kMethodNotAllowed);
  CHECK(patch.allow == "GET, DELETE");
}
