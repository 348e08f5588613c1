// links: feedback links and their questions over gRPC (feedback.links.v1.LinksService).
#include <algorithm>
#include <iostream>
#include <thread>

#include "common/core/config.h"
#include "common/core/counters.h"
#include "common/core/log.h"
#include "common/core/process.h"
#include "common/core/secret_box.h"
#include "common/pg/migrations.h"
#include "common/redis/redis_client.h"
#include "common/service/service_runner.h"
#include "services/links/links_grpc.h"
#include "services/links/pg_links_store.h"
#include "services/links/redis_link_versions.h"

namespace feedback::links {
std::vector<Migration> migrations();
}

int main() {
  using namespace feedback;
  process::blockTerminationSignals();
  log::setService("links");
  Env env;
  const int admin_port = env.integer("LINKS_ADMIN_PORT", 9092, 0, 65535);
  const int port = env.integer("LINKS_PORT", 50052, 0, 65535);
  const std::string database_url = env.requiredText("DATABASE_URL");
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // Workers mostly wait for PostgreSQL (commits wait for the WAL flush), so more of them
  // than cores lets commits share flushes.
  const int pool_size = env.integer("PG_POOL_SIZE", std::clamp(4 * cores, 4, 32), 1, 256);
  links::LinksSettings settings{env.text("PUBLIC_SCHEME", "https"),
                                env.boolean("WEBHOOK_ALLOW_PRIVATE", false)};
  const std::string secrets_key = env.requiredText("SECRETS_KEY");
  const HostPort redis_address = env.redisUrl("REDIS_URL", "redis://127.0.0.1:6379");
  if (settings.public_scheme != "https" && settings.public_scheme != "http") {
    std::cerr << "links: invalid configuration:\n  PUBLIC_SCHEME must be http or https\n";
    return 2;
  }
  try {
    env.check();
  } catch (const ConfigError& e) {
    std::cerr << "links: " << e.what() << "\n";
    return 2;
  }
  auto secrets = SecretBox::fromBase64Key(secrets_key);
  if (!secrets) {
    std::cerr << "links: invalid configuration:\n  SECRETS_KEY must be base64 of 32 bytes\n";
    return 2;
  }

  try {
    applyMigrations(database_url, "links", links::migrations());
    RedisClient redis(redis_address.host, redis_address.port);
    links::RedisLinkVersions versions(redis);
    links::LinksService service(settings, *secrets, versions);
    PgPool pool(database_url, pool_size, 4096, &links::PgLinksStore::prepare);
    Counters counters;
    links::LinksGrpc adapter(service, pool, counters);
    log::info("pg_pool", {{"workers", pool_size}});
    serveService(adapter, {port, admin_port}, pool, redis, counters);
  } catch (const std::exception& e) {
    log::error("fatal", {{"error", e.what()}});
    return 1;
  }
  return 0;
}
