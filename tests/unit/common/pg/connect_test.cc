// Needs a PostgreSQL server (DATABASE_URL): hidden from the unit run ("[.pg]") and run by the
// integration tests (tests/integration/test_resilience.py); without one it fails rather than
// pass.
#include "common/pg/connect.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <pqxx/pqxx>
#include <string>

namespace {

std::string databaseUrl() {
  const char* url = std::getenv("DATABASE_URL");
  REQUIRE(url != nullptr);
  return url;
}

// The plan of a statement that any JIT threshold of zero would compile, executed.
std::string executedPlan(pqxx::connection& c) {
  pqxx::work tx(c);
  tx.exec("SET LOCAL jit_above_cost = 0");
  return tx
      .exec1("EXPLAIN (ANALYZE, FORMAT JSON) SELECT sum(x) FROM generate_series(1, 1000) AS x")[0]
      .as<std::string>();
}

}  // namespace

TEST_CASE("a session the services open compiles no statement, whatever its cost", "[.pg]") {
  // The control: a session as the server configures it compiles this one.
  pqxx::connection plain(databaseUrl());
  REQUIRE(executedPlan(plain).find("\"JIT\"") != std::string::npos);

  auto session = feedback::pg::connect(databaseUrl());
  CHECK(executedPlan(*session).find("\"JIT\"") == std::string::npos);
  pqxx::nontransaction tx(*session);
  CHECK(tx.exec1("SHOW jit")[0].as<std::string>() == "off");
}
