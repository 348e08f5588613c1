#pragma once
// The gateway's stages, in the order buildStages gives them:
//   RouteStage        404, the trailing-slash 301, 405; the route and its path parameters
//   ResponseTokenStage  calls on a started response: 404 without a usable X-Response-Token,
//                     before anything else about them is judged (docs/api.md "Public intake")
//   CredentialsStage  keyed routes: the API key (401, 503) with the route's Redis reads and
//                     the rate limit's count in the same round trip; public routes: the
//                     workspace of the Host header (404, 503), then that round trip;
//                     assets: nothing
//                     on the way out: 401 for a key revoked meanwhile
//   RateLimitStage    429 RATE_LIMITED (503 when Redis is down in fail-closed mode); assets
//                     are not counted
//                     on the way out: the RateLimit headers
//   ScopeStage        403 INSUFFICIENT_SCOPE unless the key holds the route's scope
//   MediaLinksStage   on the way out: the addresses of files and recordings signed for the
//                     caller's workspace, fresh on every answer (replays included)
//   IdempotencyStage  POST with Idempotency-Key: replay (or 409, 422)
//                     on the way out: the first answer stored
//   DispatchStage     415 and the JSON body (400; uploads keep their raw body), then the
//                     route's handler
// and at last ResponseFinish (X-Request-Id, metrics, logs). Each stage's way-out step runs
// for the answers of the stages after it.

#include <functional>
#include <string_view>

#include "common/api/media_urls.h"
#include "common/asio/io_threads.h"
#include "common/redis/redis_script.h"
#include "services/gateway/auth/key_authenticator.h"
#include "services/gateway/auth/revoked_keys.h"
#include "services/gateway/metrics.h"
#include "services/gateway/pipeline/pipeline.h"
#include "services/gateway/ratelimit/rate_limiter.h"

namespace feedback::gateway {

class RouteStage final : public Stage {
 public:
  explicit RouteStage(const Routes& routes) : routes_(routes) {}
  void decode(const ContextPtr& ctx, Chain chain) override;

 private:
  const Routes& routes_;
};

class ResponseTokenStage final : public Stage {
 public:
  void decode(const ContextPtr& ctx, Chain chain) override;
};

class CredentialsStage final : public Stage {
 public:
  // `limiter`: whose admission joins the round trip; null when rate limits are off.
  // `clients`: which proxies may name the host a client asked for (X-Forwarded-Host).
  CredentialsStage(KeyAuthenticator& keys, WorkspaceResolver& hosts, RedisReader& reader,
                   const RevokedKeys& revoked, RateLimiter* limiter, const ClientAddresses& clients)
      : keys_(keys),
        hosts_(hosts),
        reader_(reader),
        revoked_(revoked),
        limiter_(limiter),
        clients_(clients) {}
  void decode(const ContextPtr& ctx, Chain chain) override;
  // A key revoked while its request was being processed: 401 instead of the answer.
  void encode(const ContextPtr& ctx, HttpResponse response, Unwind unwind) override;

 private:
  void apiKey(const ContextPtr& ctx, Chain chain);
  void publicHost(const ContextPtr& ctx, Chain chain);
  // The request's round trip (redis_round_trip.h), before it goes: the route's prefetch,
  // then the rate limit's admission (RateLimiter::prepare); on keyed routes the
  // KeyAuthenticator adds the key's lookup unless the admission is it.
  void assemble(RequestContext& ctx) const;

  KeyAuthenticator& keys_;
  WorkspaceResolver& hosts_;
  RedisReader& reader_;
  const RevokedKeys& revoked_;
  RateLimiter* limiter_;
  const ClientAddresses& clients_;
};

// 429 RATE_LIMITED over the limit (sliding_window.h); the RateLimit headers on every answer
// after it. Decided here when it can be (a grant or refusal kept, or a route counted in the
// replica's own window), else counted in the credentials' round trip; only when that could not
// count (a key not cached yet), in a round trip of its own.
class RateLimitStage final : public Stage {
 public:
  explicit RateLimitStage(RateLimiter& limiter) : limiter_(limiter) {}
  void decode(const ContextPtr& ctx, Chain chain) override;
  void encode(const ContextPtr& ctx, HttpResponse response, Unwind unwind) override;

 private:
  void apply(const ContextPtr& ctx, const Chain& chain, std::optional<RateDecision> decision);
  RateLimiter& limiter_;
};

// RateLimit-Limit, -Remaining, -Reset, RateLimit-Policy and RateLimit (the IETF draft's
// fields); Retry-After when refused.
void setRateLimitHeaders(const RateDecision& decision, HttpResponse& response);

// Answers of routes that sign media: each media marker becomes an absolute, signed, expiring
// address (common/api/media_urls.h) on the caller's workspace host.
class MediaLinksStage final : public Stage {
 public:
  explicit MediaLinksStage(const api::MediaUrls& urls) : urls_(urls) {}
  void decode(const ContextPtr&, Chain chain) override { chain.next(); }
  void encode(const ContextPtr& ctx, HttpResponse response, Unwind unwind) override;

 private:
  const api::MediaUrls& urls_;
};

// Idempotency-Key on POST (docs/api.md "Idempotency"): the first answer is kept 24 h and
// replayed; another request under the same key is 422, one still running 409.
class IdempotencyStage final : public Stage {
 public:
  // `claim_ttl`: how long a request's claim on its key lasts, longer than it can run; a
  // gateway that dies while holding one frees it after that.
  IdempotencyStage(RedisClient& redis, Metrics& metrics, std::chrono::milliseconds claim_ttl);
  void decode(const ContextPtr& ctx, Chain chain) override;
  void encode(const ContextPtr& ctx, HttpResponse response, Unwind unwind) override;

 private:
  void claimed(const ContextPtr& ctx, const Chain& chain, const std::optional<RedisReply>& reply);

  RedisClient& redis_;
  Metrics& metrics_;
  const std::string claim_ms_;
  const RedisScript store_;
  const RedisScript release_;
};

class ScopeStage final : public Stage {
 public:
  void decode(const ContextPtr& ctx, Chain chain) override;
};

// The handler runs on the loop of the request's connection: where its answer is written and
// its Redis connection lives. A stage before it that resumed on a gRPC completion thread (a
// key or host not cached) is handed back there; JSON parsing and handlers must not occupy
// that thread either. Without loops (unit tests), where the chain goes on.
class DispatchStage final : public Stage {
 public:
  explicit DispatchStage(IoThreads* loops) : loops_(loops) {}
  void decode(const ContextPtr& ctx, Chain chain) override;

 private:
  static void dispatch(const ContextPtr& ctx, const Chain& chain);
  IoThreads* loops_;
};

class ResponseFinish final : public FinishStage {
 public:
  // `access_log`: one JSON line per request (method, path, status, duration, request id).
  ResponseFinish(Metrics& metrics, bool access_log) : metrics_(metrics), access_log_(access_log) {}
  void encode(const RequestContext& ctx, HttpResponse& response) override;

 private:
  Metrics& metrics_;
  const bool access_log_;
};

// What the gateway's stages are made of. The order they run in is written once, in
// buildStages (and in this file's opening comment).
struct StageParts {
  const Routes& routes;
  // Who calls: a CredentialsStage (the fuzz harness: a stand-in that grants every scope).
  std::unique_ptr<Stage> credentials;
  // Each of these is left out when null.
  RateLimiter* limiter = nullptr;
  const api::MediaUrls* media_urls = nullptr;
  std::unique_ptr<Stage> idempotency = {};
  // Where handlers run (DispatchStage); null: where the chain goes on.
  IoThreads* loops = nullptr;
};
std::vector<std::unique_ptr<Stage>> buildStages(StageParts parts);

// The key of an "Authorization: Bearer <key>" header; empty when there is none.
std::string_view bearerToken(std::string_view authorization);
// True for "application/json", with or without parameters such as charset.
bool isJsonMediaType(std::string_view content_type);

}  // namespace feedback::gateway
