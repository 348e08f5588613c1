#pragma once
// The gateway's settings, read once from the environment at start-up and never changed.

#include <chrono>
#include <cstddef>

#include "common/core/config.h"
#include "services/gateway/auth/host_workspace_resolver.h"
#include "services/gateway/http/client_address.h"
#include "services/gateway/http/server.h"
#include "services/gateway/ratelimit/rate_limiter.h"

namespace feedback::gateway {

struct GatewayConfig {
  HttpServerOptions api;
  HttpServerOptions admin;
  std::string tokens;     // a gRPC target (Env::grpcTarget)
  std::string links;      // a gRPC target (Env::grpcTarget)
  std::string responses;  // a gRPC target (Env::grpcTarget)
  std::string webhooks;   // a gRPC target (Env::grpcTarget)
  HostPort redis;
  // Deadline of the backend calls made for one request.
  std::chrono::milliseconds backend_timeout{5000};
  // How long SIGTERM waits for requests in flight.
  std::chrono::milliseconds drain_timeout{10000};
  bool access_log = false;
  std::size_t link_cache_entries = 10000;
  std::size_t link_cache_bytes = 16 * 1024 * 1024;
  // Pages of completed responses (routes/response_page_cache.h); 0 bytes: none kept.
  std::size_t response_page_cache_bytes = 32 * 1024 * 1024;
  std::chrono::seconds response_page_max_age{300};
  HostCacheSettings hosts;
  // One-call submissions: calls to the responses service under way at once
  // (routes/submission_batcher.h).
  int submission_calls = 4;
  RateLimitSettings rate_limits;
  // Proxies whose X-Forwarded-For names the client (http/client_address.h).
  std::vector<std::string> trusted_proxies;
  // SECRETS_KEY, from which media URLs' signing key is derived, and PUBLIC_SCHEME, their
  // scheme (common/api/media_urls.h).
  std::string secrets_key;
  std::string public_scheme = "https";

  // Every problem at once, as ConfigError.
  static GatewayConfig fromEnvironment(Env& env);
};

}  // namespace feedback::gateway
