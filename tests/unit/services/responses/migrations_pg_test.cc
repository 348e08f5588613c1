// The responses service's migrations against a real PostgreSQL (scratch_database.h): replicas
// starting together apply them once, those run outside a transaction (indexes built
// CONCURRENTLY) included. Hidden from the unit run ("[.pg]"); run by test_responses.py.
#include <catch2/catch.hpp>
#include <future>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "common/pg/migrations.h"
#include "tests/unit/support/scratch_database.h"

TEST_CASE("migrations: replicas starting together apply each once, and none waits forever",
          "[.pg]") {
  // A replica waiting for the migrations' lock in pg_advisory_lock held a snapshot that the
  // holder's CREATE INDEX CONCURRENTLY waited for: PostgreSQL failed one of them.
  pg_test::ScratchDatabase db("migrations_race", false);
  pg_test::SchemaMigrations responses("responses");
  std::vector<std::future<void>> replicas;
  for (int i = 0; i < 3; ++i) {
    replicas.push_back(std::async(std::launch::async, [&] {
      feedback::applyMigrations(db.url(), "responses", responses.migrations());
    }));
  }
  for (auto& replica : replicas) CHECK_NOTHROW(replica.get());
  pqxx::connection c(db.url());
  pqxx::nontransaction tx(c);
  CHECK(tx.exec1("SELECT count(*) FROM responses.schema_migrations")[0].as<std::size_t>() ==
        responses.migrations().size());
  CHECK(tx.exec1("SELECT count(*) FROM pg_index WHERE NOT indisvalid")[0].as<int>() == 0);
}
