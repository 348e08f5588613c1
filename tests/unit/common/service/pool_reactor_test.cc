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
