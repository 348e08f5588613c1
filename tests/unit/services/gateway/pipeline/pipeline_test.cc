#include "services/gateway/pipeline/pipeline.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>
#include <map>

#include "services/gateway/http/responses.h"
#include "services/gateway/pipeline/stages.h"
#include "tests/unit/services/gateway/pipeline/pipeline_fakes.h"

using namespace feedback::gateway;
using namespace feedback::gateway::testing;
using feedback::ApiError;
using feedback::ErrorCode;
using feedback::RedisReply;

namespace {

constexpr const char* kUuid = "123e4567-e89b-42d3-a456-426614174000";
// What a handler saw, rendered as JSON: caller workspace, prefetched values, the body.
HttpResponse echo(const RequestContext& ctx) {
  boost::json::object out;
  out["workspace"] = ctx.caller->workspace().uuid();
  // The routes below read one key each (their prefetch, first in the round trip).
  boost::json::array prefetched;
  if (ctx.route->prefetch) {
    const auto& p = ctx.redis.routeRead(0);
    prefetched.emplace_back(!p ? boost::json::value("unanswered")
                            : p->type == RedisReply::Type::kString ? boost::json::value(p->str)
                                                                   : boost::json::value(nullptr));
  }
  out["prefetched"] = std::move(prefetched);
  out["prefetch_epoch"] = ctx.redis.epoch();
  out["prefetch_dated_before_dispatch"] =
      ctx.redis.sentAt() >= ctx.started && ctx.redis.sentAt() <= std::chrono::steady_clock::now();
  out["body"] = ctx.body;
  boost::json::array params;
  for (const auto& p : ctx.params) params.emplace_back(p);
  out["params"] = std::move(params);
  return jsonResponse(200, boost::json::serialize(out));
}

struct Fixture {
  Routes routes;
  FakeAuthenticator keys;
  FakeResolver hosts;
  FakeReader reader;
  RevokedKeys revoked;
  ClientAddresses clients;
  Metrics metrics;
  ResponseFinish finish{metrics, false};
  std::unique_ptr<Pipeline> pipeline;

  Fixture() {
    keys.redis_epoch = &reader.epoch;
    RouteFunction handler = [](const ContextPtr& ctx, Respond respond) { respond(echo(*ctx)); };
    routes.add(Method::kGet, "/v1/things/{uuid}/",
               {RouteAttributes{.scope = "links:read"}, handler, [](const RequestContext& ctx) {
                  return std::vector<RedisCommand>{{"GET", "v:" + ctx.params.at(0)}};
                }});
    routes.add(Method::kPost, "/v1/things/", {RouteAttributes{.scope = "links:write"}, handler});
    routes.add(Method::kGet, "/v1/boom/",
               {RouteAttributes{.scope = ""}, [](const ContextPtr&, Respond) -> void {
                  throw std::runtime_error("handler bug");
                }});
    routes.add(Method::kGet, "/v1/conflict/",
               {RouteAttributes{.scope = ""}, [](const ContextPtr&, Respond) -> void {
                  throw ApiError(ErrorCode::kLinkPaused);
                }});
    routes.add(Method::kGet, "/i/{slug}/form/",
               {RouteAttributes{.access = Access::kPublic}, handler, [](const RequestContext& ctx) {
                  return std::vector<RedisCommand>{
                      {"GET", ctx.caller->workspace().uuid() + "/" + ctx.params.at(0)}};
                }});
    routes.add(Method::kPost, "/i/{slug}/submit/",
               {RouteAttributes{.access = Access::kPublic, .idempotent = true}, handler});
    routes.add(
        Method::kPost, "/i/{slug}/responses/{uuid}/submit/",
        {RouteAttributes{.access = Access::kPublic, .idempotent = true, .response_token = true},
         handler});
    pipeline = std::make_unique<Pipeline>(buildStages({
                                              .routes = routes,
                                              .credentials = std::make_unique<CredentialsStage>(
                                                  keys, hosts, reader, revoked, nullptr, clients),
                                          }),
                                          finish, std::chrono::seconds(1));
  }

  HttpResponse send(std::string method, std::string target,
                    std::vector<std::pair<std::string, std::string>> headers = {},
                    std::string body = {}) {
    HttpRequest request;
    request.method = std::move(method);
    request.target = std::move(target);
    request.headers = std::move(headers);
    request.body = std::move(body);
    std::optional<HttpResponse> answer;
    pipeline->handle(std::move(request), [&answer](HttpResponse r) {
      REQUIRE_FALSE(answer);  // answered exactly once
      answer = std::move(r);
    });
    REQUIRE(answer);
    return *answer;
  }
  HttpResponse get(std::string target, const char* key = kGoodKey) {
    return send("GET", std::move(target), {{"authorization", std::string("Bearer ") + key}});
  }
};

std::string header(const HttpResponse& r, std::string_view name) {
  for (const auto& [k, v] : r.headers) {
    if (k == name) return v;
  }
  return {};
}

std::string code(const HttpResponse& r) {
  auto body = boost::json::parse(r.body);
  const auto& c = body.at("error").at("code");
  return c.is_null() ? "null" : std::string(c.as_string());
}

boost::json::value json(const HttpResponse& r) {
  return boost::json::parse(r.body);
}

}  // namespace

TEST_CASE("pipeline: bearer tokens", "[gateway]") {
  CHECK(bearerToken("Bearer sk_live_abc") == "sk_live_abc");
  CHECK(bearerToken("bearer   sk_live_abc  ") == "sk_live_abc");
  CHECK(bearerToken("Basic dXNlcjpwYXNz") == "");
  CHECK(bearerToken("Bearer") == "");
  CHECK(bearerToken("") == "");
}

TEST_CASE("pipeline: JSON media types", "[gateway]") {
  CHECK(isJsonMediaType("application/json"));
  CHECK(isJsonMediaType("Application/JSON; charset=utf-8"));
  CHECK_FALSE(isJsonMediaType("text/plain"));
  CHECK_FALSE(isJsonMediaType("application/jsonp"));
  CHECK_FALSE(isJsonMediaType(""));
}

TEST_CASE("pipeline: routing answers 404, 301 and 405 before authentication", "[gateway]") {
  Fixture f;
  auto missing = f.send("GET", "/v1/nothing/");
  CHECK(missing.status == 404);
  CHECK(code(missing) == "null");
  auto redirect = f.send("GET", std::string("/v1/things/") + kUuid + "?a=1");
  CHECK(redirect.status == 301);
  CHECK(header(redirect, "Location") == std::string("/v1/things/") + kUuid + "/?a=1");
  auto wrong = f.send("DELETE", "/v1/things/");
  CHECK(wrong.status == 405);
  CHECK(header(wrong, "Allow") == "POST");
  CHECK(f.keys.asked.empty());
}

TEST_CASE("pipeline: API keys: missing, rejected, and the tokens service down", "[gateway]") {
  Fixture f;
  std::string path = std::string("/v1/things/") + kUuid + "/";
  auto none = f.send("GET", path);
  CHECK(none.status == 401);
  CHECK(code(none) == "AUTHENTICATION_REQUIRED");
  CHECK(header(none, "WWW-Authenticate") == "Bearer");
  auto bad = f.get(path, "sk_live_unknown");
  CHECK(bad.status == 401);
  CHECK(code(bad) == "INVALID_API_KEY");
  f.keys.tokens_down = true;
  auto down = f.get(path);
  CHECK(down.status == 503);
  CHECK(code(down) == "SERVICE_UNAVAILABLE");
  CHECK(header(down, "Retry-After") == "1");
}

TEST_CASE("pipeline: the route's scope is required", "[gateway]") {
  Fixture f;
  auto post = [&f](const char* key) {
    return f.send(
        "POST", "/v1/things/",
        {{"authorization", std::string("Bearer ") + key}, {"content-type", "application/json"}},
        "{}");
  };
  auto forbidden = post(kReadOnlyKey);
  CHECK(forbidden.status == 403);
  CHECK(code(forbidden) == "INSUFFICIENT_SCOPE");
  auto allowed = post(kGoodKey);
  CHECK(allowed.status == 200);
}

TEST_CASE("pipeline: a route's Redis keys ride with the API key; Redis down is visible",
          "[gateway]") {
  Fixture f;
  f.keys.redis["v:" + std::string(kUuid)] = "7";
  std::string path = std::string("/v1/things/") + kUuid + "/";
  auto ok = f.get(path);
  REQUIRE(ok.status == 200);
  CHECK(f.keys.asked.back() == std::vector<RedisCommand>{{"GET", "v:" + std::string(kUuid)}});
  CHECK(json(ok).at("prefetched") == boost::json::parse(R"(["7"])"));
  CHECK(json(ok).at("workspace") == "ws-1");
  f.keys.redis_down = true;
  CHECK(json(f.get(path)).at("prefetched") == boost::json::parse(R"(["unanswered"])"));
}

TEST_CASE("pipeline: public routes take their workspace from the Host header", "[gateway]") {
  Fixture f;
  f.reader.values["ws-public/nps"] = "3";
  auto ok = f.send("GET", "/i/nps/form/", {{"host", "acme.feedback.test"}});
  REQUIRE(ok.status == 200);
  CHECK(json(ok).at("workspace") == "ws-public");
  CHECK(json(ok).at("prefetched") == boost::json::parse(R"(["3"])"));
  CHECK(f.keys.asked.empty());  // no API key needed, none looked up

  auto unknown = f.send("GET", "/i/nps/form/", {{"host", "other.example"}});
  CHECK(unknown.status == 404);
  f.reader.down = true;
  CHECK(json(f.send("GET", "/i/nps/form/", {{"host", "acme.feedback.test"}})).at("prefetched") ==
        boost::json::parse(R"(["unanswered"])"));
  f.hosts.down = true;
  auto down = f.send("GET", "/i/nps/form/", {{"host", "acme.feedback.test"}});
  CHECK(down.status == 503);
  CHECK(header(down, "Retry-After") == "1");
  CHECK(f.send("GET", "/i/Not_A_Slug/form/", {{"host", "acme.feedback.test"}}).status == 404);
}

TEST_CASE("pipeline: a prefetch is dated by the Redis connection that answered it", "[gateway]") {
  // Known only when no reconnection happened while the read was under way (the answers may
  // then come from either connection): 0 says unknown, and nothing read is kept.
  Fixture f;
  const std::string keyed_path = std::string("/v1/things/") + kUuid + "/";
  auto keyed = json(f.get(keyed_path));
  CHECK(keyed.at("prefetch_epoch") == 1);
  CHECK(keyed.at("prefetch_dated_before_dispatch") == true);
  f.keys.reconnects = true;
  CHECK(json(f.get(keyed_path)).at("prefetch_epoch") == 0);
  CHECK(f.reader.epoch == 2);
  f.keys.reconnects = false;
  CHECK(json(f.get(keyed_path)).at("prefetch_epoch") == 2);

  auto open = json(f.send("GET", "/i/nps/form/", {{"host", "acme.feedback.test"}}));
  CHECK(open.at("prefetch_epoch") == 2);
  CHECK(open.at("prefetch_dated_before_dispatch") == true);
  f.reader.reconnects = true;
  CHECK(
      json(f.send("GET", "/i/nps/form/", {{"host", "acme.feedback.test"}})).at("prefetch_epoch") ==
      0);
}

TEST_CASE("pipeline: a call on a response without its token is 404 before anything else",
          "[gateway]") {
  Fixture f;
  const std::string path = std::string("/i/nps/responses/") + kUuid + "/submit/";
  for (const auto& [type, body] : std::vector<std::pair<std::string, std::string>>{
           {"application/json", "{}"}, {"application/json", "{not json"}, {"text/plain", "{}"}}) {
    auto r = f.send("POST", path, {{"host", "acme.feedback.test"}, {"content-type", type}}, body);
    CHECK(r.status == 404);
  }
  // Not even the host is looked up.
  f.hosts.down = true;
  CHECK(f.send("POST", path, {{"host", "acme.feedback.test"}}, "{}").status == 404);
  // Found by the gateway_request fuzz target: a token that is not UTF-8 went on to the
  // responses service in a protobuf string, which it could not read. It is no response's.
  auto bytes =
      f.send("POST", path, {{"host", "acme.feedback.test"}, {"x-response-token", "t\xee"}}, "{}");
  CHECK(bytes.status == 404);
  CHECK(json(bytes).at("error").at("message") == "No such response.");
  f.hosts.down = false;
  auto with = f.send("POST", path,
                     {{"host", "acme.feedback.test"},
                      {"content-type", "application/json"},
                      {"x-response-token", "t"}},
                     "{}");
  CHECK(with.status == 200);
  CHECK(f.send("POST", path,
               {{"host", "acme.feedback.test"},
                {"content-type", "text/plain"},
                {"x-response-token", "t"}},
               "{}")
            .status == 415);
}

TEST_CASE("pipeline: bodies are JSON objects of a JSON media type", "[gateway]") {
  Fixture f;
  auto post = [&f](std::string body, std::string type) {
    return f.send("POST", "/i/s/submit/", {{"host", "acme.feedback.test"}, {"content-type", type}},
                  std::move(body));
  };
  CHECK(json(post(R"({"a": 1})", "application/json")).at("body") ==
        boost::json::parse(R"({"a": 1})"));
  auto media = post("{}", "text/plain");
  CHECK(media.status == 415);
  CHECK(code(media) == "UNSUPPORTED_MEDIA_TYPE");
  auto broken = post("{", "application/json");
  CHECK(broken.status == 400);
  CHECK(code(broken) == "INVALID_JSON");
  CHECK(code(post("[1]", "application/json")) == "VALIDATION_ERROR");
}

TEST_CASE("pipeline: handler failures become the contract's errors", "[gateway]") {
  Fixture f;
  auto bug = f.get("/v1/boom/");
  CHECK(bug.status == 500);
  CHECK(code(bug) == "INTERNAL_ERROR");
  auto conflict = f.get("/v1/conflict/");
  CHECK(conflict.status == 409);
  CHECK(code(conflict) == "LINK_PAUSED");
}

TEST_CASE("pipeline: every answer carries X-Request-Id; a key revoked meanwhile fails",
          "[gateway]") {
  Fixture f;
  auto echoed = f.send("GET", "/v1/nothing/", {{"x-request-id", "req-42"}});
  CHECK(header(echoed, "X-Request-Id") == "req-42");
  CHECK(code(echoed) == "null");
  CHECK(json(echoed).at("error").at("request_id") == "req-42");
  CHECK_FALSE(header(f.get("/v1/conflict/"), "X-Request-Id").empty());

  f.revoked.add(keyHash(kGoodKey));
  auto revoked = f.get(std::string("/v1/things/") + kUuid + "/");
  CHECK(revoked.status == 401);
  CHECK(code(revoked) == "INVALID_API_KEY");
}
