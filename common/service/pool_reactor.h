#pragma once
// The bridge between a gRPC callback reactor and the PostgreSQL worker pool: a handler body
// that blocks on PostgreSQL runs on a pool worker, never on a reactor thread.

#include <grpcpp/grpcpp.h>

#include <functional>
#include <string_view>

#include "common/core/counters.h"
#include "common/pg/pg_pool.h"

namespace feedback::service {

// Answers a unary callback RPC from the worker pool: `body` may block on PostgreSQL. Counts
// the call in `counters` as rpc_total{method,code}. A full queue answers UNAVAILABLE at once;
// a lost database connection answers UNAVAILABLE and the worker reconnects on its next job.
grpc::ServerUnaryReactor* onPool(grpc::CallbackServerContext* context, PgPool& pool,
                                 Counters& counters, std::string_view method,
                                 std::function<void(PgSession&)> body);

}  // namespace feedback::service
