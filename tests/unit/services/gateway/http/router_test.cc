#include "services/gateway/http/router.h"

#include <catch2/catch.hpp>

using namespace feedback::gateway;
using TestRouter = Router<int>;

namespace {
TestRouter sample() {
  TestRouter r;
  r.add(Method::kGet, "/v1/links/", 1);
  r.add(Method::kPost, "/v1/links/", 2);
  r.add(Method::kGet, "/v1/links/{uuid}/", 3);
  r.add(Method::kDelete, "/v1/links/{uuid}/", 4);
  r.add(Method::kGet, "/v1/links/{uuid}/responses/{uuid}/", 5);
  r.add(Method::kPut, "/i/{slug}/responses/{uuid}/answers/{field_key}/", 6);
  return r;
}
constexpr const char* kUuid = "123e4567-e89b-42d3-a456-426614174000";
}  // namespace

TEST_CASE("router: exact routes and path parameters", "[router]") {
  auto r = sample();
  auto list = r.resolve("GET", "/v1/links/");
  REQUIRE(list.outcome == TestRouter::Outcome::kFound);
  CHECK(list.route->entry == 1);
  auto detail = r.resolve("GET", std::string("/v1/links/") + kUuid + "/responses/" + kUuid + "/");
  REQUIRE(detail.outcome == TestRouter::Outcome::kFound);
  CHECK(detail.route->entry == 5);
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

TEST_CASE("router: slug and field_key parameters have their own forms", "[router]") {
  auto r = sample();
  auto answer = r.resolve("PUT", std::string("/i/nps-2024/responses/") + kUuid + "/answers/q_1/");
  REQUIRE(answer.outcome == TestRouter::Outcome::kFound);
  CHECK(answer.route->entry == 6);
  CHECK(answer.params == std::vector<std::string>{"nps-2024", kUuid, "q_1"});
  for (const char* bad :
       {"/i/NPS/responses/", "/i/a--b/responses/", "/i/-a/responses/", "/i/a_b/responses/"}) {
    INFO(bad);
    std::string path = std::string(bad) + kUuid + "/answers/q/";
    CHECK(r.resolve("PUT", path).outcome == TestRouter::Outcome::kNotFound);
  }
  std::string base = std::string("/i/s/responses/") + kUuid + "/answers/";
  CHECK(r.resolve("PUT", base + "Bad-Key/").outcome == TestRouter::Outcome::kNotFound);
  CHECK(r.resolve("PUT", base + "a__b/").outcome == TestRouter::Outcome::kNotFound);
  CHECK(r.resolve("GET", base + "ok/").outcome == TestRouter::Outcome::kMethodNotAllowed);
}

TEST_CASE("router: pages and files are matched without the trailing slash", "[router]") {
  TestRouter r;
  r.add(Method::kGet, "/i/{slug}", 1);
  r.add(Method::kGet, "/i/{slug}/form/", 2);
  r.add(Method::kGet, "/i/{slug}/questions/{uuid}/speech.wav", 3);
  auto page = r.resolve("GET", "/i/pulse");
  REQUIRE(page.outcome == TestRouter::Outcome::kFound);
  CHECK(page.route->entry == 1);
  CHECK(page.params == std::vector<std::string>{"pulse"});
  auto speech = r.resolve("GET", std::string("/i/pulse/questions/") + kUuid + "/speech.wav");
  REQUIRE(speech.outcome == TestRouter::Outcome::kFound);
  CHECK(speech.route->entry == 3);
  // Other paths still want their slash; a page's path with one is no page.
  CHECK(r.resolve("GET", "/i/pulse/form").outcome == TestRouter::Outcome::kRedirect);
  CHECK(r.resolve("GET", "/i/pulse/").outcome == TestRouter::Outcome::kNotFound);
  CHECK(r.resolve("GET", "/i/Not_A_Slug").outcome == TestRouter::Outcome::kNotFound);
  CHECK(r.resolve("POST", "/i/pulse").outcome == TestRouter::Outcome::kMethodNotAllowed);
}

TEST_CASE("router: a path of more segments than any route is not found", "[router]") {
  auto r = sample();
  std::string deep;
  for (int i = 0; i < 40; ++i) deep += "/links";
  CHECK(r.resolve("GET", deep + "/").outcome == TestRouter::Outcome::kNotFound);
  CHECK(r.resolve("GET", deep).outcome == TestRouter::Outcome::kNotFound);
}

TEST_CASE("router: 405 lists every method of the path, and only then", "[router]") {
  auto r = sample();
  const std::string path = "/v1/links/123e4567-e89b-42d3-a456-426614174000/";
  auto wrong = r.resolve("PUT", path);
  REQUIRE(wrong.outcome == TestRouter::Outcome::kMethodNotAllowed);
  CHECK(wrong.allow == "GET, DELETE");
  auto found = r.resolve("GET", path);
  REQUIRE(found.outcome == TestRouter::Outcome::kFound);
  CHECK(found.allow.empty());
  CHECK(found.params == std::vector<std::string>{"123e4567-e89b-42d3-a456-426614174000"});
}
