// The rate limit and revocation steps of the pipeline, with Redis and the tokens service
// faked (pipeline_fakes.h): what every answer carries, 429, the degraded modes.
#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

#include "common/redis/key_cache.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/pipeline/stages.h"
#include "tests/unit/services/gateway/pipeline/pipeline_fakes.h"

using namespace feedback::gateway;
using namespace feedback::gateway::testing;
using feedback::ApiError;
using feedback::ErrorCode;

namespace {

struct RateFixture {
  Routes routes;
  FakeRateWindows windows;
  FakeAuthenticator keys;
  FakeResolver hosts;
  FakeReader reader;
  FeedMark feed{1, true};
  RevokedKeys revoked{[this] { return feed; }};
  ClientAddresses clients;
  Metrics metrics;
  std::unique_ptr<RateLimiter> limiter;
  ResponseFinish finish{metrics, false};
  std::unique_ptr<Pipeline> pipeline;

  explicit RateFixture(RateLimitSettings settings = {}) {
    keys.redis_epoch = &reader.epoch;
    keys.windows = &windows;
    reader.windows = &windows;
    limiter = std::make_unique<RateLimiter>(reader, metrics, settings, ClientAddresses(),
                                            [this] { return windows.now_ms; });
    RouteFunction ok = [](const ContextPtr&, Respond respond) { respond(jsonResponse(200, "{}")); };
    routes.add(Method::kGet, "/v1/things/", {RouteAttributes{.scope = "links:read"}, ok});
    routes.add(Method::kPost, "/v1/things/", {RouteAttributes{.scope = "links:write"}, ok});
    routes.add(Method::kGet, "/v1/boom/",
               {RouteAttributes{.scope = ""}, [](const ContextPtr&, Respond) -> void {
                  throw ApiError(ErrorCode::kLinkPaused);
                }});
    routes.add(Method::kGet, "/i/{slug}/form/", {RouteAttributes{.access = Access::kPublic}, ok});
    pipeline = std::make_unique<Pipeline>(
        buildStages({
            .routes = routes,
            .credentials = std::make_unique<CredentialsStage>(
                keys, hosts, reader, revoked, settings.enabled ? limiter.get() : nullptr, clients),
            .limiter = limiter.get(),
        }),
        finish, std::chrono::seconds(1));
    windows.key_limits[feedback::keycache::redisKey(keyHash(kGoodKey))] = 3;
    windows.key_limits[feedback::keycache::redisKey(keyHash(kReadOnlyKey))] = 3;
  }

  HttpResponse send(std::string method, std::string target,
                    std::vector<std::pair<std::string, std::string>> headers,
                    std::string peer = "203.0.113.1") {
    HttpRequest request;
    request.method = std::move(method);
    request.target = std::move(target);
    request.headers = std::move(headers);
    request.remote_address = std::move(peer);
    std::optional<HttpResponse> answer;
    pipeline->handle(std::move(request), [&answer](HttpResponse r) {
      REQUIRE_FALSE(answer);
      answer = std::move(r);
    });
    REQUIRE(answer);
    return *answer;
  }
  HttpResponse get(std::string target, const char* key = kGoodKey) {
    return send("GET", std::move(target), {{"authorization", std::string("Bearer ") + key}});
  }
  HttpResponse intake(std::string slug, std::string peer = "203.0.113.1") {
    return send("GET", "/i/" + slug + "/form/", {{"host", "acme.feedback.test"}}, std::move(peer));
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

}  // namespace

TEST_CASE("rate limits: every keyed answer carries the headers; over the limit is 429",
          "[gateway][ratelimit]") {
  RateFixture f;
  for (int i = 0; i < 3; ++i) {
    auto r = f.get("/v1/things/");
    REQUIRE(r.status == 200);
    CHECK(header(r, "RateLimit-Limit") == "3");
    CHECK(header(r, "RateLimit-Remaining") == std::to_string(2 - i));
    CHECK(header(r, "RateLimit-Reset") == "60");
    CHECK(header(r, "RateLimit-Policy") == "\"default\";q=3;w=60");
    CHECK(header(r, "RateLimit") == "\"default\";r=" + std::to_string(2 - i) + ";t=60");
    CHECK(header(r, "Retry-After").empty());
  }
  f.windows.now_ms += 20'500;
  auto limited = f.get("/v1/things/");
  CHECK(limited.status == 429);
  CHECK(code(limited) == "RATE_LIMITED");
  CHECK(header(limited, "Retry-After") == "40");  // 39.5 s, rounded up
  CHECK(header(limited, "RateLimit-Remaining") == "0");
  CHECK(header(limited, "RateLimit-Reset") == "40");
  // Counted in the credentials' round trip: one admission per request, no second trip.
  CHECK(f.windows.admissions == 4);
  CHECK(f.metrics.rate_admitted_shared == 3);
  CHECK(f.metrics.rate_limited_shared == 1);
}

TEST_CASE("rate limits: later refusals carry the headers; 401 and routing do not",
          "[gateway][ratelimit]") {
  RateFixture f;
  auto forbidden = f.send("POST", "/v1/things/",
                          {{"authorization", std::string("Bearer ") + kReadOnlyKey},
                           {"content-type", "application/json"}});
  CHECK(forbidden.status == 403);
  CHECK(header(forbidden, "RateLimit-Remaining") == "2");
  auto paused = f.get("/v1/boom/");
  CHECK(paused.status == 409);
  CHECK(header(paused, "RateLimit-Remaining") == "2");  // each key has its own window
  auto unknown = f.get("/v1/things/", "sk_live_nobody");
  CHECK(unknown.status == 401);
  CHECK(header(unknown, "RateLimit-Limit").empty());
  CHECK(header(f.send("GET", "/v1/nowhere/", {}), "RateLimit-Limit").empty());
}

TEST_CASE("rate limits: a key whose record is not cached is counted in a trip of its own",
          "[gateway][ratelimit]") {
  RateFixture f;
  f.windows.key_limits.clear();  // the script finds no record: {-1}
  f.keys.rate_limit = 2;         // the limit the tokens service gives
  CHECK(f.get("/v1/things/").status == 200);
  CHECK(f.get("/v1/things/").status == 200);
  auto limited = f.get("/v1/things/");
  CHECK(limited.status == 429);
  CHECK(header(limited, "RateLimit-Limit") == "2");
  CHECK(f.windows.admissions == 6);  // the uncounted one in the round trip, then the count
}

TEST_CASE("rate limits: Redis silent: local limits (fail open), logged once; or 503 (closed)",
          "[gateway][ratelimit]") {
  RateFixture open;
  open.keys.redis_down = true;
  open.reader.down = true;
  for (int i = 0; i < 3; ++i) {
    auto r = open.get("/v1/things/");
    REQUIRE(r.status == 200);
    CHECK(header(r, "RateLimit-Limit") == "30");  // the key's own limit, from the caller
  }
  CHECK(open.metrics.rate_degraded == 1);
  CHECK(open.metrics.rate_admitted_local == 3);
  open.keys.redis_down = false;
  open.reader.down = false;
  CHECK(open.get("/v1/things/").status == 200);
  CHECK(open.metrics.rate_degraded == 0);
  CHECK(open.metrics.rate_admitted_shared == 1);

  RateLimitSettings closed_mode;
  closed_mode.fail_mode = RateFailMode::kClosed;
  RateFixture closed(closed_mode);
  closed.keys.redis_down = true;
  auto refused = closed.get("/v1/things/");
  CHECK(refused.status == 503);
  CHECK(header(refused, "Retry-After") == "1");
  CHECK(closed.metrics.rate_unavailable == 1);
}

TEST_CASE("rate limits: intake calls count per client address and link", "[gateway][ratelimit]") {
  RateLimitSettings settings;
  settings.intake_per_minute = 2;
  RateFixture f(settings);
  CHECK(f.intake("nps").status == 200);
  auto second = f.intake("nps");
  CHECK(second.status == 200);
  CHECK(header(second, "RateLimit-Remaining") == "0");
  auto limited = f.intake("nps");
  CHECK(limited.status == 429);
  CHECK(header(limited, "RateLimit-Limit") == "2");
  CHECK(f.intake("other-link").status == 200);
  CHECK(f.intake("nps", "203.0.113.2").status == 200);

  RateLimitSettings unlimited;
  unlimited.intake_per_minute = 0;
  RateFixture g(unlimited);
  for (int i = 0; i < 5; ++i) CHECK(header(g.intake("nps"), "RateLimit-Limit").empty());
}

TEST_CASE("rate limits: switched off, no count and no headers", "[gateway][ratelimit]") {
  RateLimitSettings off;
  off.enabled = false;
  RateFixture f(off);
  for (int i = 0; i < 5; ++i) {
    auto r = f.get("/v1/things/");
    CHECK(r.status == 200);
    CHECK(header(r, "RateLimit-Limit").empty());
  }
  CHECK(f.windows.admissions == 0);
}

TEST_CASE("revocation: a request asks again when the channel may have missed a revocation",
          "[gateway][revocation]") {
  RateFixture f;
  f.keys.revoked_quietly.insert(keyHash(kGoodKey));
  // The channel stayed up: whatever was published arrived, nothing to ask.
  CHECK(f.get("/v1/things/").status == 200);
  CHECK(f.keys.rechecks == 0);
  // The subscription is down: the key is asked about, and it was revoked.
  f.feed.live = false;
  auto revoked = f.get("/v1/things/");
  CHECK(revoked.status == 401);
  CHECK(code(revoked) == "INVALID_API_KEY");
  CHECK(f.keys.rechecks == 1);
  // Another key, still valid, keeps its answer.
  f.feed = {2, true};
  auto mark_before = f.revoked.mark();
  CHECK(f.get("/v1/things/", kReadOnlyKey).status == 200);
  CHECK(f.keys.rechecks == 1);
  CHECK_FALSE(f.revoked.mayHaveMissed(mark_before));
}

TEST_CASE("rate limits: a busy key of a high limit spends grants without a count in Redis",
          "[gateway][ratelimit]") {
  RateFixture f;
  f.windows.key_limits[feedback::keycache::redisKey(keyHash(kGoodKey))] = 100000;
  CHECK(f.get("/v1/things/").status == 200);  // the second's first: nothing granted
  CHECK(f.get("/v1/things/").status == 200);  // one more request of this second granted
  CHECK(f.windows.admissions == 2);
  auto spent = f.get("/v1/things/");
  CHECK(spent.status == 200);
  CHECK(header(spent, "RateLimit-Limit") == "100000");
  CHECK(f.windows.admissions == 2);  // decided from the grant
  CHECK(f.keys.asked.size() == 3);   // the key itself is still looked up every time
  CHECK(f.get("/v1/things/").status == 200);
  CHECK(f.windows.admissions == 3);  // the grant is spent: counted in Redis again
  // A refusal is repeated here rather than asked again, until it could change.
  f.windows.key_limits[feedback::keycache::redisKey(keyHash(kReadOnlyKey))] = 1;
  CHECK(f.get("/v1/things/", kReadOnlyKey).status == 200);
  CHECK(f.get("/v1/things/", kReadOnlyKey).status == 429);
  const int asked = f.windows.admissions;
  auto again = f.get("/v1/things/", kReadOnlyKey);
  CHECK(again.status == 429);
  CHECK_FALSE(header(again, "Retry-After").empty());
  CHECK(f.windows.admissions == asked);
}
