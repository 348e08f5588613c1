// gateway: the REST surface. Routes /v1/... to the services over gRPC; /healthz, /readyz and
// /metrics on the admin port.
#include <atomic>
#include <iostream>
#include <thread>

#include "common/core/config.h"
#include "common/core/log.h"
#include "common/core/process.h"
#include "common/grpc/grpc_kit.h"
#include "common/redis/key_cache.h"
#include "common/redis/redis_client.h"
#include "services/gateway/admin.h"
#include "services/gateway/auth/authenticator.h"
#include "services/gateway/gateway.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/http/server.h"
#include "services/gateway/routes/backend_call.h"
#include "services/gateway/routes/routes.h"

int main() {
  using namespace feedback;
  using namespace feedback::gateway;
  process::blockTerminationSignals();
  log::setService("gateway");

  Env env;
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  HttpServerOptions api;
  api.port = env.integer("GATEWAY_PORT", 8080, 0, 65535);
  api.address = env.text("GATEWAY_BIND", "0.0.0.0");
  api.threads = env.integer("GATEWAY_THREADS", cores, 1, 256);
  api.read_timeout =
      std::chrono::milliseconds(env.integer("GATEWAY_READ_TIMEOUT_MS", 30000, 100, 600000));
  api.max_connections =
      static_cast<std::size_t>(env.integer("GATEWAY_MAX_CONNECTIONS", 20000, 1, 1000000));
  HttpServerOptions admin;
  admin.port = env.integer("ADMIN_PORT", 9090, 0, 65535);
  admin.address = api.address;
  const HostPort tokens_addr = env.address("TOKENS_ADDR", "127.0.0.1:50051");
  const HostPort links_addr = env.address("LINKS_ADDR", "127.0.0.1:50052");
  const HostPort redis_addr = env.redisUrl("REDIS_URL", "redis://127.0.0.1:6379");
  backendTimeout() = std::chrono::milliseconds(env.integer("BACKEND_TIMEOUT_MS", 5000, 50, 60000));
  const int drain_ms = env.integer("DRAIN_TIMEOUT_MS", 10000, 0, 120000);
  const bool access_log = env.boolean("ACCESS_LOG", false);
  const int link_cache_entries = env.integer("LINK_CACHE_ENTRIES", 10000, 0, 10000000);
  const int link_cache_mib = env.integer("LINK_CACHE_MIB", 16, 0, 65536);
  try {
    env.check();
  } catch (const ConfigError& e) {
    std::cerr << "gateway: " << e.what() << "\n";
    return 2;
  }

  try {
    auto tokens_channel =
        grpckit::makeChannel(tokens_addr.host + ":" + std::to_string(tokens_addr.port));
    auto links_channel =
        grpckit::makeChannel(links_addr.host + ":" + std::to_string(links_addr.port));
    auto tokens = feedback::tokens::v1::TokensService::NewStub(tokens_channel);
    auto links = feedback::links::v1::LinksService::NewStub(links_channel);
    RedisClient redis(redis_addr.host, redis_addr.port);
    Metrics metrics;
    Authenticator authenticator(redis, *tokens, metrics);

    Routes routes;
    RevokedKeys revoked;
    RedisClient subscriber(redis_addr.host, redis_addr.port);
    subscriber.subscribe(std::string(keycache::kRevocationChannel),
                         [&revoked](std::string key_hash) { revoked.add(key_hash); });
    addTokensRoutes(routes, *tokens, revoked);
    LinkCache link_cache(static_cast<std::size_t>(link_cache_entries),
                         static_cast<std::size_t>(link_cache_mib) * 1024 * 1024);
    addLinksRoutes(routes, *links, link_cache, redis, metrics);

    std::unique_ptr<HttpServer> api_server;
    Gateway gateway(
        routes, authenticator, revoked, metrics,
        [&api_server](std::function<void()> task) { api_server->post(std::move(task)); },
        access_log);
    TransportErrorResponder transport_errors = &transportErrorResponse;
    api_server = std::make_unique<HttpServer>(
        api,
        [&gateway](HttpRequest r, Respond respond) {
          gateway.handle(std::move(r), std::move(respond));
        },
        transport_errors);

    std::atomic<bool> draining{false};
    grpckit::ChannelReadiness tokens_ready(tokens_channel), links_ready(links_channel);
    AdminEndpoints admin_endpoints(
        metrics, [&] { return api_server->openConnections(); },
        [&] { return !draining && tokens_ready.ready() && links_ready.ready(); });
    HttpServer admin_server(
        admin,
        [&admin_endpoints](HttpRequest r, Respond respond) { respond(admin_endpoints.handle(r)); },
        transport_errors);

    api_server->start();
    admin_server.start();
    log::info("listening", {{"port", api_server->port()},
                            {"admin_port", admin_server.port()},
                            {"threads", api.threads}});
    int signal_number = process::waitForTerminationSignal();
    log::info("draining", {{"signal", signal_number}});
    draining = true;
    api_server->stop(std::chrono::milliseconds(drain_ms));
    admin_server.stop(std::chrono::milliseconds(0));
  } catch (const std::exception& e) {
    log::error("fatal", {{"error", e.what()}});
    return 1;
  }
  return 0;
}
