// responses: responses to feedback links over gRPC (feedback.responses.v1.ResponsesService):
// the public intake's writes, with their outbox events, and the reads of the API.
#include <algorithm>
#include <iostream>
#include <thread>

#include "common/core/config.h"
#include "common/core/counters.h"
#include "common/core/log.h"
#include "common/core/process.h"
#include "common/pg/migrations.h"
#include "common/redis/redis_client.h"
#include "common/service/service_runner.h"
#include "services/responses/pg_responses_store.h"
#include "services/responses/redis_link_counts.h"
#include "services/responses/responses_grpc.h"

namespace feedback::responses {
std::vector<Migration> migrations();
}

int main() {
  using namespace feedback;
  process::blockTerminationSignals();
  log::setService("responses");
  Env env;
  const int admin_port = env.integer("RESPONSES_ADMIN_PORT", 9093, 0, 65535);
  const int port = env.integer("RESPONSES_PORT", 50053, 0, 65535);
  const std::string database_url = env.requiredText("DATABASE_URL");
  const HostPort redis_address = env.redisUrl("REDIS_URL", "redis://127.0.0.1:6379");
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // Workers mostly wait for PostgreSQL (commits wait for the WAL flush), so more of them
  // than cores lets commits share flushes.
  const int pool_size = env.integer("PG_POOL_SIZE", std::clamp(4 * cores, 4, 32), 1, 256);
  // New responses are written in batches, one per connection at a time.
  const int writers = env.integer("RESPONSE_WRITERS", cores, 1, 64);
  try {
    env.check();
  } catch (const ConfigError& e) {
    std::cerr << "responses: " << e.what() << "\n";
    return 2;
  }

  try {
    applyMigrations(database_url, "responses", responses::migrations());
    RedisClient redis(redis_address.host, redis_address.port);
    Counters counters;
    responses::RedisLinkCounts link_counts(redis, counters);
    responses::BatchingResponseWriter writer(database_url, link_counts, counters, writers);
    responses::ResponsesService service(writer, link_counts);
    PgPool pool(database_url, pool_size, 4096, &responses::PgResponsesStore::prepare);
    responses::ResponsesGrpc adapter(service, pool, counters);
    log::info("pg_pool", {{"workers", pool_size}});
    serveService(adapter, {port, admin_port}, pool, redis, counters);
  } catch (const std::exception& e) {
    log::error("fatal", {{"error", e.what()}});
    return 1;
  }
  return 0;
}
