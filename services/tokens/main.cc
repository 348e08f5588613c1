// tokens: workspaces, plans and API keys over gRPC (feedback.tokens.v1.TokensService).
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
#include "services/tokens/pg_tokens_store.h"
#include "services/tokens/redis_key_cache.h"
#include "services/tokens/tokens_grpc.h"

namespace feedback::tokens {
std::vector<Migration> migrations();
}

int main() {
  using namespace feedback;
  process::blockTerminationSignals();
  log::setService("tokens");
  Env env;
  const int admin_port = env.integer("TOKENS_ADMIN_PORT", 9091, 0, 65535);
  const int port = env.integer("TOKENS_PORT", 50051, 0, 65535);
  const std::string database_url = env.requiredText("DATABASE_URL");
  const HostPort redis_address = env.redisUrl("REDIS_URL", "redis://127.0.0.1:6379");
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // Workers mostly wait for PostgreSQL (commits wait for the WAL flush), so more of them
  // than cores lets commits share flushes.
  const int pool_size = env.integer("PG_POOL_SIZE", std::clamp(4 * cores, 4, 32), 1, 256);
  tokens::TokensSettings settings{env.text("PUBLIC_HOST_SUFFIX", "localhost")};
  try {
    env.check();
  } catch (const ConfigError& e) {
    std::cerr << "tokens: " << e.what() << "\n";
    return 2;
  }

  try {
    applyMigrations(database_url, "tokens", tokens::migrations());
    RedisClient redis(redis_address.host, redis_address.port);
    tokens::RedisKeyCache cache(redis);
    tokens::TokensService service(settings, cache);
    PgPool pool(database_url, pool_size, 4096, &tokens::PgTokensStore::prepare);
    Counters counters;
    tokens::TokensGrpc adapter(service, pool, counters);
    log::info("pg_pool", {{"workers", pool_size}});
    serveService(adapter, {port, admin_port}, pool, redis, counters);
  } catch (const std::exception& e) {
    log::error("fatal", {{"error", e.what()}});
    return 1;
  }
  return 0;
}
