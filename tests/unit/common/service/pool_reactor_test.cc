#include "common/service/pool_reactor.h"

#include <catch2/catch.hpp>
#include <pqxx/except>

#include "common/core/errors.h"

using feedback::ApiError;
using feedback::ErrorCode;

namespace {

ErrorCode codeOf(const std::function<void(feedback::PgSession&)>& body) {
  const std::string url = "postgresql://nobody@127.0.0.1:1/none";
  feedback::PgSession session(url);
  try {
    feedback::service::runOnSession(session, body, "req-1");
  } catch (const ApiError& e) {
    return e.code();
  }
  return ErrorCode::kInternalError;
}

}  // namespace

// scripts/chaos restarted PostgreSQL while a link was being committed: libpqxx's in_doubt_error
// became an INTERNAL_ERROR (500) instead of a 503 the caller can retry after.
TEST_CASE("pool reactor: a connection lost, even while committing, is UNAVAILABLE", "[service]") {
  CHECK(codeOf([](feedback::PgSession&) { throw pqxx::broken_connection("gone"); }) ==
        ErrorCode::kServiceUnavailable);
  CHECK(codeOf([](feedback::PgSession&) {
          throw pqxx::in_doubt_error("Connection lost while committing transaction ''.");
        }) == ErrorCode::kServiceUnavailable);
  CHECK(codeOf([](feedback::PgSession&) { throw pqxx::deadlock_detected("deadlock detected"); }) ==
        ErrorCode::kServiceUnavailable);
  CHECK(codeOf([](feedback::PgSession&) {
          throw pqxx::serialization_failure("could not serialize access");
        }) == ErrorCode::kServiceUnavailable);
  CHECK(codeOf([](feedback::PgSession&) { throw ApiError(ErrorCode::kSlugConflict); }) ==
        ErrorCode::kSlugConflict);
  CHECK(codeOf([](feedback::PgSession&) {}) == ErrorCode::kInternalError);
}

// The one mapping of PostgreSQL's failures: runOnSession and the responses' batch writer both
// use it.
TEST_CASE("pool reactor: each failure the caller may retry is told apart, nothing else is",
          "[service]") {
  using feedback::service::DatabaseFailure;
  using feedback::service::databaseFailureOf;
  auto of = [](auto error) { return databaseFailureOf(std::make_exception_ptr(error)); };
  CHECK(of(pqxx::broken_connection("gone")) == DatabaseFailure::kConnectionLost);
  CHECK(of(pqxx::in_doubt_error("lost while committing")) == DatabaseFailure::kCommitInDoubt);
  CHECK(of(pqxx::deadlock_detected("deadlock detected")) == DatabaseFailure::kRolledBack);
  CHECK(of(pqxx::serialization_failure("could not serialize")) == DatabaseFailure::kRolledBack);
  CHECK_FALSE(of(pqxx::unique_violation("duplicate key")));
  CHECK_FALSE(of(ApiError(ErrorCode::kSlugConflict)));
  CHECK_FALSE(of(std::runtime_error("other")));
  CHECK_FALSE(databaseFailureOf(std::exception_ptr()));
  for (auto failure : {DatabaseFailure::kConnectionLost, DatabaseFailure::kCommitInDoubt,
                       DatabaseFailure::kRolledBack}) {
    const ApiError error = feedback::service::apiErrorFor(failure);
    CHECK(error.code() == ErrorCode::kServiceUnavailable);
    CHECK(std::string(error.what()).size() > 10);
  }
}
