#include "common/service/service_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <thread>

#include "common/asio/admin_http.h"
#include "common/core/ascii.h"
#include "common/core/log.h"
#include "common/core/process.h"
#include "common/grpc/grpc_kit.h"

namespace feedback {

void serveService(const std::vector<grpc::Service*>& services, ServicePorts ports, PgPool& pool,
                  RedisClient& redis, Counters& counters) {
  counters.gauge("pg_pool_queue_depth", [&pool] { return static_cast<double>(pool.queueDepth()); });
  counters.gauge("pg_pool_healthy", [&pool] { return pool.healthy() ? 1.0 : 0.0; });
  counters.gauge("redis_connected", [&redis] { return redis.connected() ? 1.0 : 0.0; });
  int bound = 0;
  grpckit::CallsInFlight calls;
  auto server = grpckit::startServer(services, ports.grpc, &bound, &calls);
  std::atomic<bool> draining{false};
  AdminHttp admin(ports.admin,
                  {[&] { return !draining && pool.probe(std::chrono::milliseconds(1000)); },
                   [&counters] { return counters.render(); }});
  log::info("listening", {{"port", bound}, {"admin_port", admin.port()}});
  grpckit::serveUntilSignal(
      *server, [&draining] { draining = true; }, ports.drain_delay, &calls);
  pool.stop();
}

namespace {

// The settings every service reads, with their defaults.
ServiceBasics readBasics(Env& env, const ServiceDefinition& definition) {
  const std::string prefix = asciiUppercase(definition.name);
  ServiceBasics basics;
  basics.ports.admin =
      env.integer((prefix + "_ADMIN_PORT").c_str(), definition.default_admin_port, 0, 65535,
                  {"the admin port: /healthz, /readyz (PostgreSQL reachable, not draining), "
                   "/metrics"});
  basics.ports.grpc =
      env.integer((prefix + "_PORT").c_str(), definition.default_port, 0, 65535, {"the gRPC port"});
  basics.database_url = env.requiredText("DATABASE_URL", {"the PostgreSQL connection URL"});
  basics.redis = env.redisUrl("REDIS_URL", "redis://127.0.0.1:6379", {kRedisUrlAbout});
  // How long a leaving replica keeps serving after it says NOT_SERVING, while its callers
  // (and Kubernetes' endpoints) move away.
  basics.ports.drain_delay = std::chrono::milliseconds(env.integer(
      "DRAIN_DELAY_MS", 2000, 0, 10 * 1000,
      {"on SIGTERM, how long it keeps serving after saying NOT_SERVING, before it finishes "
       "its calls and exits"}));
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // Workers mostly wait for PostgreSQL (commits wait for the WAL flush), so more of them
  // than cores lets commits share flushes.
  basics.pool_size =
      env.integer("PG_POOL_SIZE", std::clamp(4 * cores, 4, 32), 1, 256,
                  {"PostgreSQL connections, one worker thread each", "4 per core, from 4 to 32"});
  // A rollout's migrations Job runs the process this way before the Deployments change.
  basics.migrate_only = env.boolean("MIGRATE_ONLY", false,
                                    {"apply the migrations and exit (a rollout's migrations Job)"});
  return basics;
}

}  // namespace

int serviceMain(int argc, char** argv, const ServiceDefinition& definition,
                const std::function<void(Env&)>& configure,
                const std::function<void(ServiceResources&)>& run) {
  if (asksForSettings(argc, argv)) {
    Env env = Env::empty();
    readBasics(env, definition);
    configure(env);
    std::cout << env.settingsJson() << "\n";
    return 0;
  }
  process::blockTerminationSignals();
  log::setService(definition.name);
  Env env;
  const ServiceBasics basics = readBasics(env, definition);
  configure(env);
  try {
    env.check();
  } catch (const ConfigError& e) {
    std::cerr << definition.name << ": " << e.what() << "\n";
    return 2;
  }

  try {
    applyMigrations(basics.database_url, definition.name, definition.migrations);
    if (basics.migrate_only) {
      log::info("migrated", {});
      return 0;
    }
    RedisClient redis(basics.redis.host, basics.redis.port);
    Counters counters;
    PgPool pool(basics.database_url, basics.pool_size, 4096, definition.prepare);
    log::info("pg_pool", {{"workers", basics.pool_size}});
    ServiceResources resources{basics, redis, pool, counters,
                               [&](const std::vector<grpc::Service*>& services) {
                                 serveService(services, basics.ports, pool, redis, counters);
                               }};
    run(resources);
  } catch (const std::exception& e) {
    log::error("fatal", {{"error", e.what()}});
    return 1;
  }
  return 0;
}

}  // namespace feedback
