#pragma once
// What every gRPC service process does once its parts are built: gauges for its PostgreSQL
// pool and Redis, the gRPC server (health and reflection included), the admin port
// (/healthz, /readyz, /metrics), serving until SIGTERM or SIGINT, then draining.

#include <grpcpp/grpcpp.h>

#include "common/core/counters.h"
#include "common/pg/pg_pool.h"
#include "common/redis/redis_client.h"

namespace feedback {

struct ServicePorts {
  int grpc = 0;   // 0: any free port
  int admin = 0;  // 0: any free port
};

// Blocks until the process is told to stop; returns after the drain.
void serveService(grpc::Service& service, ServicePorts ports, PgPool& pool, RedisClient& redis,
                  Counters& counters);

}  // namespace feedback
