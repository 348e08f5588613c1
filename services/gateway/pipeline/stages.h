#pragma once
// The gateway's stages, in the order main wires them:
//   RouteStage        404, the trailing-slash 301, 405; the route and its path parameters
//   CredentialsStage  keyed routes: the API key (401, 503) with the route's Redis reads in
//                     the same round trip; public routes: the workspace of the Host header
//                     (404, 503), then the route's Redis reads
//   ScopeStage        403 INSUFFICIENT_SCOPE unless the key holds the route's scope
//   DispatchStage     415 and the JSON body (400), then the route's handler
// and on the way out ResponseFinish (revocation in flight, X-Request-Id, metrics, logs).
// Rate limits and idempotency are stages of their own between CredentialsStage and
// DispatchStage.

#include <functional>
#include <string_view>

#include "services/gateway/auth/key_authenticator.h"
#include "services/gateway/auth/revoked_keys.h"
#include "services/gateway/metrics.h"
#include "services/gateway/pipeline/pipeline.h"

namespace feedback::gateway {

class RouteStage final : public Stage {
 public:
  explicit RouteStage(const Routes& routes) : routes_(routes) {}
  void decode(const ContextPtr& ctx, Chain chain) override;

 private:
  const Routes& routes_;
};

class CredentialsStage final : public Stage {
 public:
  CredentialsStage(KeyAuthenticator& keys, WorkspaceResolver& hosts, RedisReader& reader)
      : keys_(keys), hosts_(hosts), reader_(reader) {}
  void decode(const ContextPtr& ctx, Chain chain) override;

 private:
  void apiKey(const ContextPtr& ctx, Chain chain);
  void publicHost(const ContextPtr& ctx, Chain chain);
  // The route's Redis commands, recorded in `ctx` with the epoch and time they are sent at.
  std::vector<RedisCommand> routePrefetch(RequestContext& ctx) const;
  // The prefetch's answers into `ctx`, and whether its epoch is still known.
  void received(RequestContext& ctx, RedisReplies replies) const;

  KeyAuthenticator& keys_;
  WorkspaceResolver& hosts_;
  RedisReader& reader_;
};

class ScopeStage final : public Stage {
 public:
  void decode(const ContextPtr& ctx, Chain chain) override;
};

// Runs a task on an I/O thread: JSON parsing and handlers must not occupy the Redis or gRPC
// completion threads that deliver the credentials.
using Post = std::function<void(std::function<void()>)>;

class DispatchStage final : public Stage {
 public:
  explicit DispatchStage(Post post) : post_(std::move(post)) {}
  void decode(const ContextPtr& ctx, Chain chain) override;

 private:
  static void dispatch(const ContextPtr& ctx, const Chain& chain);
  Post post_;
};

class ResponseFinish final : public FinishStage {
 public:
  // `access_log`: one JSON line per request (method, path, status, duration, request id).
  ResponseFinish(const RevokedKeys& revoked, Metrics& metrics, bool access_log)
      : revoked_(revoked), metrics_(metrics), access_log_(access_log) {}
  void encode(const RequestContext& ctx, HttpResponse& response) override;

 private:
  const RevokedKeys& revoked_;
  Metrics& metrics_;
  const bool access_log_;
};

// The key of an "Authorization: Bearer <key>" header; empty when there is none.
std::string_view bearerToken(std::string_view authorization);
// True for "application/json", with or without parameters such as charset.
bool isJsonMediaType(std::string_view content_type);

}  // namespace feedback::gateway
