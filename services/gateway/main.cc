// gateway: the REST surface. Routes /v1/... and the public intake /i/... to the services over
// gRPC; /healthz, /readyz and /metrics on the admin port. main only wires.
#include <atomic>
#include <cstdio>
#include <iostream>

#include "common/asio/io_threads.h"
#include "common/core/log.h"
#include "common/core/process.h"
#include "common/grpc/grpc_kit.h"
#include "common/redis/key_cache.h"
#include "common/redis/redis_client.h"
#include "feedback/tokens/v1/tokens.grpc.pb.h"
#include "services/gateway/admin.h"
#include "services/gateway/auth/host_workspace_resolver.h"
#include "services/gateway/auth/redis_key_authenticator.h"
#include "services/gateway/auth/redis_key_reader.h"
#include "services/gateway/gateway_config.h"
#include "services/gateway/gateway_routes.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/http/server.h"
#include "services/gateway/pipeline/stages.h"

namespace {

using namespace feedback;
using namespace feedback::gateway;

// --settings: the settings the gateway reads (Env::settingsJson), for docs/configuration.md.
int printSettings() {
  Env env = Env::empty();
  try {
    GatewayConfig::fromEnvironment(env);
  } catch (const ConfigError&) {
    // Required settings have no default: their absence is no concern of the description.
  }
  std::cout << env.settingsJson() << "\n";
  return 0;
}

// --routes: the route table (GatewayRoutes::describe) built as main builds it, with the
// default settings and a made-up key; no route is called (its Redis client may try the default
// address, and logs that it cannot reach it). scripts/docs makes docs/code-map.md of it.
int printRoutes() {
  static constexpr const char* kAnyKey = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
  Env env([](const char* name) -> const char* {
    return std::string_view(name) == "SECRETS_KEY" ? kAnyKey : nullptr;
  });
  const GatewayConfig config = GatewayConfig::fromEnvironment(env);
  const Backends backends = Backends::connect(config);
  RedisClient redis(config.redis.host, config.redis.port);
  Metrics metrics;
  RevokedKeys revoked([] { return FeedMark{0, false}; });
  const GatewayRoutes routes(config, backends, redis, metrics, revoked);
  // One write, as each log line is one: the Redis client's thread may log meanwhile, and two
  // writes let its line land between the table and its line break.
  const std::string line = routes.describe() + "\n";
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (asksForSettings(argc, argv)) return printSettings();
  if (argc > 1 && std::string_view(argv[1]) == "--routes") return printRoutes();
  process::blockTerminationSignals();
  log::setService("gateway");

  Env env;
  std::optional<GatewayConfig> loaded;
  try {
    loaded = GatewayConfig::fromEnvironment(env);
  } catch (const ConfigError& e) {
    std::cerr << "gateway: " << e.what() << "\n";
    return 2;
  }
  const GatewayConfig& config = *loaded;

  try {
    // The loops the API's connections, their requests and their Redis connections live on.
    IoThreads loops(config.api.threads);
    loops.start();
    const Backends backends = Backends::connect(config);
    auto tokens = feedback::tokens::v1::TokensService::NewStub(backends.tokens);
    RedisClient redis(loops, config.redis.host, config.redis.port);
    Metrics metrics;

    RedisClient subscriber(config.redis.host, config.redis.port);
    RevokedKeys revoked([&subscriber] {
      return FeedMark{subscriber.connectionEpoch(), subscriber.subscribed()};
    });
    subscriber.subscribe(std::string(keycache::kRevocationChannel),
                         [&revoked](std::string key_hash) { revoked.add(key_hash); });

    const GatewayRoutes routes(config, backends, redis, metrics, revoked);

    HostWorkspaceResolver hosts(*tokens, config.backend_timeout, config.hosts);
    PipelinedRedisReader reader(redis);
    const ClientAddresses clients(config.trusted_proxies);
    RateLimiter limiter(reader, metrics, config.rate_limits, clients);
    RateLimiter* admissions = config.rate_limits.enabled ? &limiter : nullptr;
    RedisKeyAuthenticator authenticator(redis, *tokens, metrics, config.backend_timeout, &loops);
    ResponseFinish finish(metrics, config.access_log);
    Pipeline pipeline(
        buildStages({
            .routes = routes.routes(),
            .credentials = std::make_unique<CredentialsStage>(authenticator, hosts, reader, revoked,
                                                              admissions, clients),
            .limiter = &limiter,
            .media_urls = &routes.mediaUrls(),
            .idempotency = std::make_unique<IdempotencyStage>(
                redis, metrics,
                std::max(config.backend_timeout * 3, std::chrono::milliseconds(30000))),
            .loops = &loops,
        }),
        finish, config.backend_timeout);

    TransportErrorResponder transport_errors = &transportErrorResponse;
    HttpServer api_server(
        loops, routes.withBodyLimits(config.api),
        [&pipeline](HttpRequest r, Respond respond) {
          pipeline.handle(std::move(r), std::move(respond));
        },
        transport_errors);

    std::atomic<bool> draining{false};
    grpckit::ChannelReadiness tokens_ready(backends.tokens), links_ready(backends.links),
        responses_ready(backends.responses);
    AdminEndpoints admin_endpoints(
        metrics, [&] { return api_server.openConnections(); },
        [&] {
          return !draining && tokens_ready.ready() && links_ready.ready() &&
                 responses_ready.ready();
        },
        [&backends] { return renderBackendsAvailable(backends); }, routes.describe());
    HttpServer admin_server(
        config.admin,
        [&admin_endpoints](HttpRequest r, Respond respond) { respond(admin_endpoints.handle(r)); },
        transport_errors);

    api_server.start();
    admin_server.start();
    log::info("listening", {{"port", api_server.port()},
                            {"admin_port", admin_server.port()},
                            {"threads", config.api.threads}});
    int signal_number = process::waitForTerminationSignal();
    log::info("draining", {{"signal", signal_number}});
    draining = true;
    api_server.stop(config.drain_timeout);
    admin_server.stop(std::chrono::milliseconds(0));
    // Backend calls of requests cut off by the drain finish by their deadline; the parts they
    // reach (caches, stubs) are destroyed only after that.
    if (!pipeline.waitIdle(config.backend_timeout + std::chrono::seconds(1))) {
      log::warn("requests_left_at_exit", {});
    }
  } catch (const std::exception& e) {
    log::error("fatal", {{"error", e.what()}});
    return 1;
  }
  return 0;
}
