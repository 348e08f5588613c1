#include "common/service/service_runner.h"

#include <atomic>
#include <chrono>

#include "common/asio/admin_http.h"
#include "common/core/log.h"
#include "common/grpc/grpc_kit.h"

namespace feedback {

void serveService(grpc::Service& service, ServicePorts ports, PgPool& pool, RedisClient& redis,
                  Counters& counters) {
  counters.gauge("pg_pool_queue_depth", [&pool] { return static_cast<double>(pool.queueDepth()); });
  counters.gauge("pg_pool_healthy", [&pool] { return pool.healthy() ? 1.0 : 0.0; });
  counters.gauge("redis_connected", [&redis] { return redis.connected() ? 1.0 : 0.0; });
  int bound = 0;
  auto server = grpckit::startServer({&service}, ports.grpc, &bound);
  std::atomic<bool> draining{false};
  AdminHttp admin(ports.admin,
                  {[&] { return !draining && pool.probe(std::chrono::milliseconds(1000)); },
                   [&counters] { return counters.render(); }});
  log::info("listening", {{"port", bound}, {"admin_port", admin.port()}});
  grpckit::serveUntilSignal(*server, [&draining] { draining = true; });
  pool.stop();
}

}  // namespace feedback
