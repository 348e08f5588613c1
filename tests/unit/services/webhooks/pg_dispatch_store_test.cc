// PgDispatchStore's pruning against a real PostgreSQL holding the webhooks schema. Needs a
// database, so it is hidden from the unit run ("[.pg]") and run by the integration tests with
// DATABASE_URL set (tests/integration/test_webhooks.py); without it it fails rather than pass.
#include "services/webhooks/pg_dispatch_store.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <pqxx/pqxx>
#include <string>

#include "common/core/ids.h"

using namespace feedback;
using namespace feedback::webhooks;

namespace {

std::string databaseUrl() {
  const char* url = std::getenv("DATABASE_URL");
  REQUIRE(url != nullptr);
  return url;
}

int64_t count(pqxx::connection& c, const std::string& query) {
  pqxx::nontransaction tx(c);
  return tx.exec1(query)[0].as<int64_t>();
}

void exec(pqxx::connection& c, const std::string& query) {
  pqxx::nontransaction tx(c);
  tx.exec(query);
}

// An event of `workspace` created `days` ago.
std::string event(pqxx::connection& c, const std::string& workspace, int days) {
  std::string id = newUuid();
  exec(c,
       "INSERT INTO webhooks.events (event_id, type, workspace_uuid, payload, created_at)"
       " VALUES ('" +
           id + "', 'response.submitted', '" + workspace +
           "', '{}',"
           " now() - interval '" +
           std::to_string(days) + " days')");
  return id;
}

void delivery(pqxx::connection& c, const std::string& webhook, const std::string& event_id,
              int days) {
  exec(c,
       "INSERT INTO webhooks.deliveries (uuid, webhook_uuid, event_id, attempt, redelivery,"
       " succeeded, duration_ms, date_created) VALUES ('" +
           newUuid() + "', '" + webhook + "', '" + event_id +
           "', 1, false, true, 1, now() - interval '" + std::to_string(days) + " days')");
}

}  // namespace

TEST_CASE("dispatch store: pruning goes oldest first, past events still in use", "[.pg]") {
  pqxx::connection c(databaseUrl());
  PgDispatchStore::prepare(c);
  // Nothing else in a test database is a month old; what this test leaves is removed below.
  REQUIRE(count(c,
                "SELECT count(*) FROM webhooks.deliveries"
                " WHERE date_created < now() - interval '30 days'") == 0);
  const std::string workspace = newUuid(), webhook = newUuid();
  exec(c,
       "INSERT INTO webhooks.webhooks (uuid, workspace_uuid, url, events, enabled,"
       " secret_sealed) VALUES ('" +
           webhook + "', '" + workspace +
           "', 'https://example.com/', '{response.submitted}', true, 'x')");
  // The three oldest events are still needed: one by a queued send, two by recent deliveries
  // (redelivered lately). Pruning two at a time must get past them.
  const std::string queued = event(c, workspace, 60);
  // Due tomorrow: the stack's dispatcher, running beside this test, would otherwise send it to
  // example.com and record its attempts against the webhook whose deliveries are counted below.
  exec(c, "INSERT INTO webhooks.pending (webhook_uuid, event_id, due_at) VALUES ('" + webhook +
              "', '" + queued + "', now() + interval '1 day')");
  for (int i = 0; i < 2; ++i) {
    const std::string redelivered = event(c, workspace, 59);
    delivery(c, webhook, redelivered, 58);
    delivery(c, webhook, redelivered, 1);
  }
  for (int i = 0; i < 5; ++i) delivery(c, webhook, event(c, workspace, 45 - i), 45 - i);
  const std::string recent = event(c, workspace, 2);
  delivery(c, webhook, recent, 2);

  PgDispatchStore store(c);
  const std::string of = " WHERE workspace_uuid = '" + workspace + "'";
  int calls = 0;
  for (;; ++calls) {
    REQUIRE(calls < 20);
    auto pruned = store.prune(30, 2);
    if (pruned.deliveries < 2 && pruned.events < 2) break;
  }
  CHECK(count(c, "SELECT count(*) FROM webhooks.deliveries WHERE webhook_uuid = '" + webhook +
                     "'") == 3);  // the two recent redeliveries and the recent one
  CHECK(count(c, "SELECT count(*) FROM webhooks.events" + of) == 4);  // queued, 2 redelivered,
                                                                      // recent
  CHECK(count(c, "SELECT count(*) FROM webhooks.events" + of + " AND event_id IN ('" + queued +
                     "', '" + recent + "')") == 2);
  exec(c, "DELETE FROM webhooks.webhooks WHERE uuid = '" + webhook + "'");
  exec(c, "DELETE FROM webhooks.events" + of);
}
