#pragma once
// What every gRPC service process does once its parts are built: gauges for its PostgreSQL
// pool and Redis, the gRPC server (health and reflection included), the admin port
// (/healthz, /readyz, /metrics), serving until SIGTERM or SIGINT, then draining.

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "common/core/config.h"
#include "common/core/counters.h"
#include "common/pg/migrations.h"
#include "common/pg/pg_pool.h"
#include "common/redis/redis_client.h"

namespace feedback {

struct ServicePorts {
  int grpc = 0;                              // 0: any free port
  int admin = 0;                             // 0: any free port
  std::chrono::milliseconds drain_delay{0};  // see grpckit::serveUntilSignal
};

// Blocks until the process is told to stop; returns after the drain.
void serveService(const std::vector<grpc::Service*>& services, ServicePorts ports, PgPool& pool,
                  RedisClient& redis, Counters& counters);

// A service process as main declares it.
struct ServiceDefinition {
  // "links": its schema, its log name, and the prefix of LINKS_PORT and LINKS_ADMIN_PORT.
  std::string name;
  int default_port = 0;
  int default_admin_port = 0;
  std::vector<Migration> migrations;
  // Runs on every new PostgreSQL connection, e.g. to prepare statements.
  std::function<void(pqxx::connection&)> prepare;
};

// What every service has, read from the environment: <NAME>_PORT, <NAME>_ADMIN_PORT,
// DATABASE_URL, REDIS_URL, PG_POOL_SIZE, DRAIN_DELAY_MS.
struct ServiceBasics {
  ServicePorts ports;
  std::string database_url;
  HostPort redis;
  int pool_size = 0;
  bool migrate_only = false;
};

// What the service's own wiring gets, running.
struct ServiceResources {
  const ServiceBasics& basics;
  RedisClient& redis;
  PgPool& pool;
  Counters& counters;
  // Serves the services until SIGTERM or SIGINT, then drains (serveService).
  std::function<void(const std::vector<grpc::Service*>&)> serve;
};

// The whole life of a gRPC service process: its basic settings and, through `configure`, its
// own (every problem at once; exit code 2), migrations, Redis, the PostgreSQL pool, then
// `run`, which wires the service's parts and calls resources.serve. Exit code 1 on a fatal
// error, 0 after a drain. With MIGRATE_ONLY=true it applies its migrations and exits 0 (the
// migrations Job of a rollout). With the argument --settings it prints the settings it reads
// (Env::settingsJson: scripts/docs makes docs/configuration.md of them) and exits 0.
int serviceMain(int argc, char** argv, const ServiceDefinition& definition,
                const std::function<void(Env&)>& configure,
                const std::function<void(ServiceResources&)>& run);

}  // namespace feedback
