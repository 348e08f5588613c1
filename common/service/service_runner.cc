#include "common/service/service_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <thread>

#include "common/asio/admin_http.h"
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

int serviceMain(const ServiceDefinition& definition, const std::function<void(Env&)>& configure,
                const std::function<void(ServiceResources&)>& run) {
  process::blockTerminationSignals();
  log::setService(definition.name);
  std::string prefix = definition.name;
  for (auto& c : prefix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  Env env;
  ServiceBasics basics;
  basics.ports.admin =
      env.integer((prefix + "_ADMIN_PORT").c_str(), definition.default_admin_port, 0, 65535);
  basics.ports.grpc = env.integer((prefix + "_PORT").c_str(), definition.default_port, 0, 65535);
  basics.database_url = env.requiredText("DATABASE_URL");
  basics.redis = env.redisUrl("REDIS_URL", "redis://127.0.0.1:6379");
  // How long a leaving replica keeps serving after it says NOT_SERVING, while its callers
  // (and Kubernetes' endpoints) move away.
  basics.ports.drain_delay =
      std::chrono::milliseconds(env.integer("DRAIN_DELAY_MS", 2000, 0, 10 * 1000));
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // Workers mostly wait for PostgreSQL (commits wait for the WAL flush), so more of them
  // than cores lets commits share flushes.
  basics.pool_size = env.integer("PG_POOL_SIZE", std::clamp(4 * cores, 4, 32), 1, 256);
  // A rollout's migrations Job runs the process this way before the Deployments change.
  const bool migrate_only = env.boolean("MIGRATE_ONLY", false);
  configure(env);
  try {
    env.check();
  } catch (const ConfigError& e) {
    std::cerr << definition.name << ": " << e.what() << "\n";
    return 2;
  }

  try {
    applyMigrations(basics.database_url, definition.name, definition.migrations);
    if (migrate_only) {
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
