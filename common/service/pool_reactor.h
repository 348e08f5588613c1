#pragma once
// The bridge between a gRPC callback reactor and the PostgreSQL worker pool: a handler body
// that blocks on PostgreSQL runs on a pool worker, never on a reactor thread.

#include <grpcpp/grpcpp.h>

#include <exception>
#include <functional>
#include <optional>
#include <string_view>

#include "common/core/counters.h"
#include "common/core/errors.h"
#include "common/pg/pg_pool.h"
#include "common/service/call_meter.h"

namespace feedback::service {

// One unary call's reactor, request id and metrics: finish() records the call (CallMeter) and
// answers it. Copyable, so that whoever answers can hold it.
class UnaryCall {
 public:
  UnaryCall(grpc::CallbackServerContext* context, Counters& counters, std::string_view method)
      : reactor_(context->DefaultReactor()), meter_(context, counters, method) {}
  grpc::ServerUnaryReactor* reactor() const { return reactor_; }
  const std::string& requestId() const { return meter_.requestId(); }
  const std::string& traceId() const { return meter_.traceId(); }
  void finish(const grpc::Status& status) const {
    meter_.record(status);
    reactor_->Finish(status);
  }

 private:
  grpc::ServerUnaryReactor* reactor_;
  CallMeter meter_;
};

// A failure of PostgreSQL after which the caller may try again: the contract's 503.
enum class DatabaseFailure {
  kConnectionLost,  // the session must reconnect
  kCommitInDoubt,   // lost while committing: the change may or may not have been made
  kRolledBack,      // a deadlock's victim or a serialization failure: nothing was made
};
// The failure `error` is; nullopt for any other error.
std::optional<DatabaseFailure> databaseFailureOf(const std::exception& error);
std::optional<DatabaseFailure> databaseFailureOf(const std::exception_ptr& error);
// What a call answers for it: ApiError(kServiceUnavailable) with the failure's message.
ApiError apiErrorFor(DatabaseFailure failure);

// Runs `body` on a pool worker's session, the database's failures made the contract's
// (databaseFailureOf, apiErrorFor), logged; after a lost connection the session reconnects on
// its next job.
void runOnSession(PgSession& session, const std::function<void(PgSession&)>& body,
                  std::string_view request_id);

// Answers a unary callback RPC from the worker pool: `body` may block on PostgreSQL. Counts
// the call in `counters` as rpc_total{method,code}. A full queue answers UNAVAILABLE at once;
// a lost database connection answers UNAVAILABLE and the worker reconnects on its next job.
grpc::ServerUnaryReactor* onPool(grpc::CallbackServerContext* context, PgPool& pool,
                                 Counters& counters, std::string_view method,
                                 std::function<void(PgSession&)> body);

// The usual body: `(service.*method)(store, *request)` with a `Store` on the worker's
// connection, its answer in *response.
template <class Store, class Service, class Method, class Request, class Response>
grpc::ServerUnaryReactor* callOnPool(grpc::CallbackServerContext* context, PgPool& pool,
                                     Counters& counters, std::string_view name, Service& service,
                                     Method method, const Request* request, Response* response) {
  return onPool(context, pool, counters, name,
                [&service, method, request, response](PgSession& session) {
                  Store store(session.connection());
                  *response = (service.*method)(store, *request);
                });
}

}  // namespace feedback::service
