#include "common/service/pool_reactor.h"

#include <pqxx/except>

#include "common/core/log.h"
#include "common/grpc/grpc_kit.h"

namespace feedback::service {

std::optional<DatabaseFailure> databaseFailureOf(const std::exception& error) {
  // in_doubt_error first: PostgreSQL went away during COMMIT (found by scripts/chaos,
  // restarting it under load).
  if (dynamic_cast<const pqxx::in_doubt_error*>(&error)) return DatabaseFailure::kCommitInDoubt;
  if (dynamic_cast<const pqxx::broken_connection*>(&error)) {
    return DatabaseFailure::kConnectionLost;
  }
  if (dynamic_cast<const pqxx::transaction_rollback*>(&error)) return DatabaseFailure::kRolledBack;
  return std::nullopt;
}

std::optional<DatabaseFailure> databaseFailureOf(const std::exception_ptr& error) {
  if (!error) return std::nullopt;
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return databaseFailureOf(e);
  } catch (...) {
    return std::nullopt;
  }
}

namespace {

// By DatabaseFailure, in its order: the event logged, and the message answered.
struct FailureText {
  const char* log_event;
  const char* message;
};
constexpr FailureText kFailureTexts[] = {
    {"postgres_connection_lost", "The database is unavailable."},
    {"postgres_commit_in_doubt",
     "The database was lost while saving; the change may not have been made."},
    // The same call later mostly goes through, the other side having finished.
    {"postgres_transaction_rolled_back",
     "The database undid the change to let another through; retry it."},
};

const FailureText& textOf(DatabaseFailure failure) {
  return kFailureTexts[static_cast<std::size_t>(failure)];
}

}  // namespace

ApiError apiErrorFor(DatabaseFailure failure) {
  return ApiError(ErrorCode::kServiceUnavailable, textOf(failure).message);
}

void runOnSession(PgSession& session, const std::function<void(PgSession&)>& body,
                  std::string_view request_id) {
  try {
    body(session);
  } catch (const std::exception& e) {
    const auto failure = databaseFailureOf(e);
    if (!failure) throw;
    if (*failure != DatabaseFailure::kRolledBack) session.reset();  // the next call reconnects
    log::warn(textOf(*failure).log_event, {{"error", e.what()}, {"request_id", request_id}});
    throw apiErrorFor(*failure);
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
