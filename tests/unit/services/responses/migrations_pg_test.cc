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

TEST_CASE("migrations: responses written before search keys existed get theirs", "[.pg]") {
  // Migration 015 keys the rows written under 014, so that no response drops out of searches.
  pg_test::ScratchDatabase db("migrations_keys", false);
  pg_test::SchemaMigrations responses("responses");
  std::vector<feedback::Migration> before;
  for (const auto& m : responses.migrations()) {
    if (m.version < 15) before.push_back(m);
  }
  REQUIRE(before.size() < responses.migrations().size());
  feedback::applyMigrations(db.url(), "responses", before);
  pqxx::connection c(db.url());
  pg_test::exec(c,
                "INSERT INTO responses.responses (uuid, workspace_uuid, link_uuid, session_id,"
                " token_hash, status, answers, search_text, started_at, sort_at)"
                " SELECT gen_random_uuid(), '8c1ef4dd-16ff-4ac9-b3e6-a4b3831701b6',"
                " '5562fceb-16e5-4770-ac5a-e92ccff0b34e', 's', 'h', 'in_progress', '[]',"
                " 'Answer ' || i || ' of the Zebracorn', now(), now()"
                " FROM generate_series(1, 25000) AS i");
  feedback::applyMigrations(db.url(), "responses", responses.migrations());
  pqxx::nontransaction tx(c);
  const auto keyed = tx.exec1(
      "SELECT count(*) FILTER (WHERE search_keys = responses.search_keys_of("
      " responses.link_search_key(link_uuid), search_text)), count(*),"
      " count(*) FILTER (WHERE search_keys @> responses.term_keys("
      " responses.link_search_key('5562fceb-16e5-4770-ac5a-e92ccff0b34e'), 'zebracorn'))"
      " FROM responses.responses");
  CHECK(keyed[1].as<int>() == 25000);
  CHECK(keyed[0].as<int>() == 25000);
  CHECK(keyed[2].as<int>() == 25000);
  CHECK(tx.exec1("SELECT count(*) FROM pg_index WHERE NOT indisvalid")[0].as<int>() == 0);
  CHECK(tx.exec1("SELECT to_regclass('responses.responses_search_keys') IS NOT NULL"
                 " AND to_regclass('responses.responses_search') IS NULL"
                 " AND cardinality(responses.term_trigrams('zebracorn')) = 7")[0]
            .as<bool>());
}
