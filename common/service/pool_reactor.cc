#include "common/service/pool_reactor.h"

#include <pqxx/except>

#include "common/core/log.h"
#include "common/grpc/grpc_kit.h"

namespace feedback::service {

void runOnSession(PgSession& session, const std::function<void(PgSession&)>& body,
                  std::string_view request_id) {
  try {
    body(session);
  } catch (const pqxx::broken_connection& e) {
    session.reset();  // the next call on this worker reconnects
    log::warn("postgres_connection_lost", {{"error", e.what()}, {"request_id", request_id}});
    throw ApiError(ErrorCode::kServiceUnavailable, "The database is unavailable.");
  } catch (const pqxx::in_doubt_error& e) {
    // PostgreSQL went away during COMMIT (found by scripts/chaos, restarting it under load):
    // the change may or may not have been made, which is what a 503 lets the caller assume.
    session.reset();
    log::warn("postgres_commit_in_doubt", {{"error", e.what()}, {"request_id", request_id}});
    throw ApiError(ErrorCode::kServiceUnavailable,
                   "The database was lost while saving; the change may not have been made.");
  } catch (const pqxx::transaction_rollback& e) {
    // A deadlock's victim, or a serialization failure: nothing was made, and the same call
    // later mostly goes through.
    log::warn("postgres_transaction_rolled_back",
              {{"error", e.what()}, {"request_id", request_id}});
    throw ApiError(ErrorCode::kServiceUnavailable,
                   "The database undid the change to let another through; retry it.");
  }
}

grpc::ServerUnaryReactor* onPool(grpc::CallbackServerContext* context, PgPool& pool,
                                 Counters& counters, std::string_view method,
                                 std::function<void(PgSession&)> body) {
  UnaryCall call(context, counters, method);
  bool queued = pool.trySubmit([call, body = std::move(body)](PgSession& session) {
    log::TraceScope traced(call.traceId());
    call.finish(
        grpckit::guarded([&] { runOnSession(session, body, call.requestId()); }, call.requestId()));
  });
  if (!queued) {
    call.finish(
        grpckit::toStatus(ApiError(ErrorCode::kServiceUnavailable, "The service is busy.")));
  }
  return call.reactor();
}

}  // namespace feedback::service
