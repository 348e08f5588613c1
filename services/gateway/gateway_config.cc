#include "services/gateway/gateway_config.h"

#include <algorithm>
#include <thread>

#include "common/redis/response_counts.h"

namespace feedback::gateway {

GatewayConfig GatewayConfig::fromEnvironment(Env& env) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  GatewayConfig c;
  c.api.port = env.integer("GATEWAY_PORT", 8080, 0, 65535);
  c.api.address = env.text("GATEWAY_BIND", "0.0.0.0");
  c.api.threads = env.integer("GATEWAY_THREADS", cores, 1, 256);
  c.api.read_timeout =
      std::chrono::milliseconds(env.integer("GATEWAY_READ_TIMEOUT_MS", 30000, 100, 600000));
  c.api.max_connections =
      static_cast<std::size_t>(env.integer("GATEWAY_MAX_CONNECTIONS", 20000, 1, 1000000));
  c.api.large_body_budget =
      static_cast<std::size_t>(env.integer("UPLOAD_BUDGET_MIB", 256, 1, 65536)) * 1024 * 1024;
  c.admin.port = env.integer("ADMIN_PORT", 9090, 0, 65535);
  c.admin.address = c.api.address;
  c.tokens = env.grpcTarget("TOKENS_ADDR", "127.0.0.1:50051");
  c.links = env.grpcTarget("LINKS_ADDR", "127.0.0.1:50052");
  c.responses = env.grpcTarget("RESPONSES_ADDR", "127.0.0.1:50053");
  c.webhooks = env.grpcTarget("WEBHOOKS_ADDR", "127.0.0.1:50054");
  c.redis = env.redisUrl("REDIS_URL", "redis://127.0.0.1:6379");
  c.backend_timeout = std::chrono::milliseconds(env.integer("BACKEND_TIMEOUT_MS", 5000, 50, 60000));
  c.drain_timeout = std::chrono::milliseconds(env.integer("DRAIN_TIMEOUT_MS", 10000, 0, 120000));
  c.access_log = env.boolean("ACCESS_LOG", false);
  c.link_cache_entries =
      static_cast<std::size_t>(env.integer("LINK_CACHE_ENTRIES", 10000, 0, 10000000));
  c.link_cache_bytes =
      static_cast<std::size_t>(env.integer("LINK_CACHE_MIB", 16, 0, 65536)) * 1024 * 1024;
  c.response_page_cache_bytes =
      static_cast<std::size_t>(env.integer("RESPONSE_PAGE_CACHE_MIB", 32, 0, 65536)) * 1024 * 1024;
  // At most responsecount::kMaxPageAgeSeconds (common/redis/response_counts.h says why).
  c.response_page_max_age = std::chrono::seconds(
      env.integer("RESPONSE_PAGE_CACHE_SECONDS", 300, 1, responsecount::kMaxPageAgeSeconds));
  c.hosts.public_host_suffix = env.text("PUBLIC_HOST_SUFFIX", "localhost");
  c.hosts.known_ttl = std::chrono::seconds(env.integer("HOST_CACHE_SECONDS", 60, 0, 86400));
  c.submission_calls = env.integer("SUBMISSION_CALLS", 4, 1, 256);
  c.rate_limits.enabled = env.boolean("RATE_LIMITS", true);
  std::string fail_mode = env.text("RATE_LIMIT_FAIL_MODE", "open");
  if (fail_mode == "closed") {
    c.rate_limits.fail_mode = RateFailMode::kClosed;
  } else if (fail_mode != "open") {
    env.problem("RATE_LIMIT_FAIL_MODE must be open or closed, got '" + fail_mode + "'");
  }
  c.rate_limits.intake_per_minute = env.integer("INTAKE_RATE_LIMIT", 60, 0, 100000000);
  c.trusted_proxies = splitList(env.text("TRUSTED_PROXIES", ""));
  try {
    ClientAddresses check(c.trusted_proxies);
  } catch (const std::invalid_argument& e) {
    env.problem(std::string("TRUSTED_PROXIES: ") + e.what());
  }
  c.secrets_key = env.requiredText("SECRETS_KEY");
  c.public_scheme = env.text("PUBLIC_SCHEME", "https");
  if (c.public_scheme != "http" && c.public_scheme != "https") {
    env.problem("PUBLIC_SCHEME must be http or https");
  }
  env.check();
  return c;
}

}  // namespace feedback::gateway
