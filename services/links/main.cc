// links: feedback links and their questions over gRPC (feedback.links.v1.LinksService).
#include <algorithm>
#include <atomic>
#include <iostream>
#include <thread>

#include "common/admin_http.h"
#include "common/config.h"
#include "common/counters.h"
#include "common/grpc_kit.h"
#include "common/log.h"
#include "common/migrations.h"
#include "common/process.h"
#include "common/redis_client.h"
#include "common/secret_box.h"
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
    counters.gauge("pg_pool_queue_depth",
                   [&pool] { return static_cast<double>(pool.queueDepth()); });
    counters.gauge("pg_pool_healthy", [&pool] { return pool.healthy() ? 1.0 : 0.0; });
    counters.gauge("redis_connected", [&redis] { return redis.connected() ? 1.0 : 0.0; });
    links::LinksGrpc adapter(service, pool, counters);
    int bound = 0;
    auto server = grpckit::startServer({&adapter}, port, &bound);
    std::atomic<bool> draining{false};
    AdminHttp admin(admin_port,
                    {[&] { return !draining && pool.probe(std::chrono::milliseconds(1000)); },
                     [&counters] { return counters.render(); }});
    log::info("listening", {{"port", bound}, {"admin_port", admin.port()}, {"pg_pool", pool_size}});
    grpckit::serveUntilSignal(*server, [&draining] { draining = true; });
    pool.stop();
  } catch (const std::exception& e) {
    log::error("fatal", {{"error", e.what()}});
    return 1;
  }
  return 0;
}
