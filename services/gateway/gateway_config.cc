#include "services/gateway/gateway_config.h"

#include <algorithm>
#include <thread>

#include "common/redis/response_counts.h"

namespace feedback::gateway {

GatewayConfig GatewayConfig::fromEnvironment(Env& env) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  GatewayConfig c;
  c.api.port = env.integer("GATEWAY_PORT", 8080, 0, 65535, {"the API's port (0: any free port)"});
  c.api.address =
      env.text("GATEWAY_BIND", "0.0.0.0", {"the address the API and admin ports listen on"});
  c.api.threads = env.integer(
      "GATEWAY_THREADS", cores, 1, 256,
      {"I/O threads: each serves its connections, their requests and a Redis connection of its own",
       "the number of cores"});
  c.api.read_timeout = std::chrono::milliseconds(
      env.integer("GATEWAY_READ_TIMEOUT_MS", 30000, 100, 600000,
                  {"the deadline for reading one request: a slow client is cut off after it"}));
  c.api.max_connections = static_cast<std::size_t>(
      env.integer("GATEWAY_MAX_CONNECTIONS", 20000, 1, 1000000,
                  {"open connections beyond this many are closed at once"}));
  c.api.large_body_budget = static_cast<std::size_t>(env.integer(
                                "UPLOAD_BUDGET_MIB", 256, 1, 65536,
                                {"MiB of upload bodies (files, recordings) held at once by all "
                                 "connections; an upload past it is answered 503 with "
                                 "Retry-After before its body is read"})) *
                            1024 * 1024;
  c.admin.port = env.integer("ADMIN_PORT", 9090, 0, 65535,
                             {"the admin port: /healthz, /readyz, /metrics, /routes"});
  c.admin.address = c.api.address;
  c.tokens = env.grpcTarget("TOKENS_ADDR", "127.0.0.1:50051", {"the tokens service"});
  c.links = env.grpcTarget("LINKS_ADDR", "127.0.0.1:50052", {"the links service"});
  c.responses = env.grpcTarget("RESPONSES_ADDR", "127.0.0.1:50053", {"the responses service"});
  c.webhooks = env.grpcTarget("WEBHOOKS_ADDR", "127.0.0.1:50054", {"the webhooks service"});
  c.redis = env.redisUrl("REDIS_URL", "redis://127.0.0.1:6379", {kRedisUrlAbout});
  c.backend_timeout = std::chrono::milliseconds(
      env.integer("BACKEND_TIMEOUT_MS", 5000, 50, 60000, {"the deadline of each gRPC call"}));
  c.drain_timeout = std::chrono::milliseconds(
      env.integer("DRAIN_TIMEOUT_MS", 10000, 0, 120000,
                  {"on SIGTERM, how long it waits for the requests and connections it holds"}));
  c.access_log = env.boolean(
      "ACCESS_LOG", false,
      {"one JSON line per request (method, path, status, duration_ms, request_id, trace_id); "
       "failures (5xx) are always logged"});
  c.link_cache_entries = static_cast<std::size_t>(env.integer(
      "LINK_CACHE_ENTRIES", 10000, 0, 10000000,
      {"links kept in the link document cache and in the intake's links by slug (0: none)"}));
  c.link_cache_bytes =
      static_cast<std::size_t>(env.integer("LINK_CACHE_MIB", 16, 0, 65536,
                                           {"MiB the link document cache may hold (0: none)"})) *
      1024 * 1024;
  c.response_page_cache_bytes =
      static_cast<std::size_t>(
          env.integer("RESPONSE_PAGE_CACHE_MIB", 32, 0, 65536,
                      {"MiB of kept pages of completed responses (0: none are kept)"})) *
      1024 * 1024;
  // At most responsecount::kMaxPageAgeSeconds (common/redis/response_counts.h says why).
  c.response_page_max_age = std::chrono::seconds(
      env.integer("RESPONSE_PAGE_CACHE_SECONDS", 300, 1, responsecount::kMaxPageAgeSeconds,
                  {"the longest a kept page of responses is served"}));
  c.hosts.public_host_suffix = env.text("PUBLIC_HOST_SUFFIX", "localhost", {kHostSuffixAbout});
  c.hosts.known_ttl =
      std::chrono::seconds(env.integer("HOST_CACHE_SECONDS", 60, 0, 86400,
                                       {"how long the workspace of a public host is remembered"}));
  c.submission_calls =
      env.integer("SUBMISSION_CALLS", 4, 1, 256,
                  {"calls to the responses service under way at once for one-call submissions; "
                   "submissions arriving meanwhile wait and share the next call"});
  c.rate_limits.enabled =
      env.boolean("RATE_LIMITS", true,
                  {"per-key and intake rate limits (false: no count and no RateLimit headers; for "
                   "measurements)"});
  if (env.choice("RATE_LIMIT_FAIL_MODE", "open", {"open", "closed"},
                 {"while Redis does not answer: open counts per replica, closed answers 503"}) ==
      "closed") {
    c.rate_limits.fail_mode = RateFailMode::kClosed;
  }
  c.rate_limits.intake_per_minute =
      env.integer("INTAKE_RATE_LIMIT", 60, 0, 100000000,
                  {"public intake calls per minute per client address and link (0: not limited)"});
  c.trusted_proxies = splitList(
      env.text("TRUSTED_PROXIES", "",
               {.meaning = "load balancers whose X-Forwarded-For names the client and whose "
                           "X-Forwarded-Host names the host asked for",
                .accepted = "comma-separated IPv4 or IPv6 addresses or CIDR blocks"}));
  try {
    ClientAddresses check(c.trusted_proxies);
  } catch (const std::invalid_argument& e) {
    env.problem(std::string("TRUSTED_PROXIES: ") + e.what());
  }
  c.secrets_key = secretsKey(env);
  c.public_scheme = publicScheme(env);
  env.check();
  return c;
}

}  // namespace feedback::gateway
