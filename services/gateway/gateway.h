#pragma once
// The request pipeline, the same for every API route: request id, routing (404, 301, 405),
// authentication (401), scope (403), body checks (415, 400), then the route's handler.

#include <functional>

#include "services/gateway/auth/authenticator.h"
#include "services/gateway/auth/revoked_keys.h"
#include "services/gateway/metrics.h"
#include "services/gateway/routes/request_context.h"

namespace feedback::gateway {

// Runs a task on an I/O thread (work such as JSON parsing must not occupy the Redis or gRPC
// completion threads that deliver authentication results).
using Post = std::function<void(std::function<void()>)>;

class Gateway {
 public:
  // `access_log`: one JSON line per request (method, path, status, duration, request id).
  Gateway(const Routes& routes, Authenticator& authenticator, const RevokedKeys& revoked,
          Metrics& metrics, Post post, bool access_log = false)
      : routes_(routes),
        authenticator_(authenticator),
        revoked_(revoked),
        metrics_(metrics),
        post_(std::move(post)),
        access_log_(access_log) {}

  void handle(HttpRequest request, Respond respond);

 private:
  void dispatch(const ContextPtr& ctx, const Routes::Route& route, const Respond& respond);

  const Routes& routes_;
  Authenticator& authenticator_;
  const RevokedKeys& revoked_;
  Metrics& metrics_;
  Post post_;
  const bool access_log_;
};

// The key of an "Authorization: Bearer <key>" header; empty when there is none.
std::string_view bearerToken(std::string_view authorization);
// True for "application/json", with or without parameters such as charset.
bool isJsonMediaType(std::string_view content_type);

}  // namespace feedback::gateway
