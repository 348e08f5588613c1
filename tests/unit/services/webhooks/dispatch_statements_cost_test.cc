// The dispatcher's statements read as many pages for a backlog of 100,000 as for one of 10,000:
// what they cost depends on the rows they take, not on what the outbox, the queued sends and
// the kept events hold. The queues' statistics are taken after a backlog drained (few rows,
// pages on disk), as autovacuum takes them where the dispatcher keeps the queues empty, and
// stay so while the backlog grows, as they do until autovacuum's next visit: the conditions
// under which a fan-out statement once ran for minutes (pg_dispatch_store.cc says why the
// statements have the shapes they have).
//
// Runs in a database of its own (scratch_database.h). Needs a database, so it is hidden from
// the unit run ("[.pg]") and run by the integration tests (tests/integration/test_webhooks.py);
// without one it fails rather than pass.
#include <catch2/catch.hpp>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "common/core/ids.h"
#include "common/webhooks/webhook_rules.h"
#include "services/webhooks/pg_dispatch_store.h"
#include "tests/unit/support/scratch_database.h"

using namespace feedback;
using namespace feedback::webhooks;
using pg_test::exec;
using pg_test::pagesRead;

namespace {

std::string literalArray(const std::vector<std::string>& values, const std::string& type) {
  std::string out = "ARRAY[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    out += (i ? "," : "") + (values[i] == "NULL" ? values[i] : "'" + values[i] + "'");
  }
  return out + "]::" + type + "[]";
}

// A record of `sends` as the dispatcher makes it: every other one succeeded, the rest retried.
std::string recordOf(const std::vector<Send>& sends) {
  std::vector<std::string> ids, uuids, hooks, events, attempts, no, succeeded, status, duration,
      errors, bodies, retry;
  for (std::size_t i = 0; i < sends.size(); ++i) {
    const bool ok = i % 2 == 0;
    ids.push_back(std::to_string(sends[i].pending_id));
    uuids.push_back(newUuid());
    hooks.push_back(sends[i].webhook_uuid);
    events.push_back(sends[i].event_id);
    attempts.push_back(std::to_string(sends[i].attempt));
    no.push_back("f");
    succeeded.push_back(ok ? "t" : "f");
    status.push_back(ok ? "200" : "500");
    duration.push_back("3");
    errors.push_back("NULL");
    bodies.push_back("");
    retry.push_back(ok ? "NULL" : "5000");
  }
  return "EXECUTE webhooks_record(" + literalArray(ids, "bigint") + "," +
         literalArray(uuids, "uuid") + "," + literalArray(hooks, "uuid") + "," +
         literalArray(events, "uuid") + "," + literalArray(attempts, "bigint") + "," +
         literalArray(no, "text") + "," + literalArray(succeeded, "text") + "," +
         literalArray(status, "bigint") + "," + literalArray(duration, "bigint") + "," +
         literalArray(errors, "text") + "," + literalArray(bodies, "text") + "," +
         literalArray(retry, "bigint") + "," + literalArray(no, "text") + ")";
}

// The queues of a workspace with a webhook that wants both events (a one-shot row's
// response.started is made as it is fanned out).
struct Queues {
  std::string workspace = newUuid(), link = newUuid(), webhook = newUuid();
  std::string quiet_workspace = newUuid();  // no webhook: its events are dropped

  void createWebhook(pqxx::connection& c) const {
    exec(c,
         "INSERT INTO webhooks.webhooks (uuid, workspace_uuid, url, events, enabled,"
         " secret_sealed) VALUES ('" +
             webhook + "', '" + workspace +
             "', 'https://example.com/', '{response.started,response.submitted}', true, 'x')");
  }
  // `count` outbox rows, half of them in the workspace with the webhook: responses started,
  // and responses completed in one call (a row for both events).
  void addOutbox(pqxx::connection& c, int count) const {
    exec(c,
         "INSERT INTO responses.outbox_events (event_id, type, started_event_id, workspace_uuid,"
         " link_uuid, response_uuid, payload) SELECT gen_random_uuid(), 'response.submitted',"
         " CASE WHEN g % 2 = 0 THEN gen_random_uuid() END, CASE WHEN g % 4 < 2 THEN '" +
             workspace + "'::uuid ELSE '" + quiet_workspace + "'::uuid END, '" + link +
             "', gen_random_uuid(), '{\"type\":\"response.submitted\",' ||"
             " repeat(md5(g::text), 24) || '}' FROM generate_series(1, " +
             std::to_string(count) + ") g");
  }
  // `count` due sends to the webhook, each of an event kept for it.
  void addSends(pqxx::connection& c, int count) const {
    exec(c,
         "WITH e AS (INSERT INTO webhooks.events (event_id, type, workspace_uuid, link_uuid,"
         " payload) SELECT gen_random_uuid(), 'response.submitted', '" +
             workspace + "', '" + link + "', repeat(md5(g::text), 24) FROM generate_series(1, " +
             std::to_string(count) +
             ") g RETURNING event_id)"
             " INSERT INTO webhooks.pending (webhook_uuid, event_id, due_at) SELECT '" +
             webhook + "', event_id, now() - interval '1 minute' FROM e");
  }
};

// Pages of the outbox (its heap and its indexes) that `run` read or found in the buffer cache,
// from the table's I/O statistics, which this backend flushes when it next goes idle.
template <typename F>
long outboxPagesTouchedBy(pqxx::connection& c, F&& run) {
  auto touched = [&c] {
    exec(c, "SELECT pg_stat_force_next_flush()");
    pqxx::nontransaction tx(c);
    tx.exec("SELECT pg_stat_clear_snapshot()");
    return tx
        .exec1(
            "SELECT coalesce(heap_blks_read, 0) + coalesce(heap_blks_hit, 0) +"
            " coalesce(idx_blks_read, 0) + coalesce(idx_blks_hit, 0)"
            " FROM pg_statio_user_tables WHERE relid = 'responses.outbox_events'::regclass")[0]
        .as<long>();
  };
  const long before = touched();
  exec(c, "SELECT pg_stat_force_next_flush()");
  run();
  return touched() - before;
}

struct Pages {
  long fan_out, claim, next_due, record, lag;
};

Pages measure(pqxx::connection& c) {
  Pages p{};
  // The parameters PgDispatchStore::fanOut gives.
  p.fan_out = pagesRead(c, "EXECUTE webhooks_fan_out(500, '" + std::string(kResponseStarted) +
                               "', '" + std::string(kSubmittedPayloadPrefix) + "', '" +
                               std::string(kStartedPayloadPrefix) + "')");
  p.claim = pagesRead(c, "EXECUTE webhooks_claim('{}'::uuid[], '{}'::bigint[], 32, 256, 60000)");
  p.next_due = pagesRead(c, "EXECUTE webhooks_next_due('{}'::uuid[], '{}'::bigint[], 32)");
  p.lag = pagesRead(c, "EXECUTE webhooks_outbox_lag");
  // The record of sends leased for real (a record finds them by id and lease).
  PgDispatchStore store(c);
  auto claimed = store.claim(256, 32, {}, Millis(60000));
  REQUIRE(claimed.size() == 32);
  p.record = pagesRead(c, recordOf(claimed));
  return p;
}

// A dispatcher's connection whose statements fail rather than hang, to an outbox that only
// the test vacuums.
void prepareWithOutboxUnvacuumed(pqxx::connection& c) {
  PgDispatchStore::prepareDispatcher(c);
  exec(c, "SET statement_timeout = '20s'");
  exec(c, "ALTER TABLE responses.outbox_events SET (autovacuum_enabled = false)");
}

}  // namespace

TEST_CASE("dispatch statements: pages read do not grow with the backlog", "[.pg]") {
  pg_test::ScratchDatabase db("dispatch_cost");
  pqxx::connection c(db.url());
  PgDispatchStore::prepareDispatcher(c);
  // libpqxx prepares a statement at its first use; EXPLAIN EXECUTE needs it now.
  for (const char* name : {"webhooks_fan_out", "webhooks_outbox_lag", "webhooks_claim",
                           "webhooks_next_due", "webhooks_record"}) {
    c.prepare_now(name);
  }
  // A statement that melts down fails the test rather than hang it.
  exec(c, "SET statement_timeout = '20s'");
  Queues queues;
  queues.createWebhook(c);

  // A backlog that came and was drained, the tables analysed after: few rows in their
  // statistics, pages on disk. Autovacuum stays away, as it does for a while in production.
  for (const char* table : {"responses.outbox_events", "webhooks.pending", "webhooks.events"}) {
    exec(c, std::string("ALTER TABLE ") + table + " SET (autovacuum_enabled = false)");
  }
  queues.addOutbox(c, 2000);
  queues.addSends(c, 2000);
  exec(c, "DELETE FROM responses.outbox_events");
  exec(c, "DELETE FROM webhooks.pending");
  exec(c, "DELETE FROM webhooks.events");
  exec(c, "ANALYZE responses.outbox_events, webhooks.pending, webhooks.events");

  queues.addOutbox(c, 10000);
  queues.addSends(c, 10000);
  const Pages small = measure(c);
  queues.addOutbox(c, 90000);
  queues.addSends(c, 90000);
  const Pages large = measure(c);

  INFO("pages read with a backlog of 10,000 and of 100,000: fan-out "
       << small.fan_out << " / " << large.fan_out << ", claim " << small.claim << " / "
       << large.claim << ", next due " << small.next_due << " / " << large.next_due << ", record "
       << small.record << " / " << large.record << ", lag " << small.lag << " / " << large.lag);
  // Ten times the backlog; a statement that reads the whole of it reads ten times the pages.
  // The margin covers an index a level deeper and the pages of rows that came meanwhile.
  auto same = [](long few, long many) { return many <= few * 3 / 2 + 20; };
  CHECK(same(small.fan_out, large.fan_out));
  CHECK(same(small.claim, large.claim));
  CHECK(same(small.next_due, large.next_due));
  CHECK(same(small.record, large.record));
  CHECK(same(small.lag, large.lag));
  // Enough work measured for the comparison to mean something.
  CHECK(small.fan_out > 500);
  CHECK(small.claim > 32);
}

TEST_CASE(
    "dispatch statements: the outbox's lag is read on its index whatever the outbox held "
    "when it was first read",
    "[.pg]") {
  pg_test::ScratchDatabase db("dispatch_lag");
  pqxx::connection c(db.url());
  prepareWithOutboxUnvacuumed(c);
  // As a dispatcher starts: the outbox drained, autovacuum has left it at no pages.
  exec(c, "VACUUM ANALYZE responses.outbox_events");
  PgDispatchStore store(c);
  CHECK(store.outboxLag() == 0.0);

  Queues queues;
  queues.addOutbox(c, 20000);
  double lag = -1;
  const long pages = outboxPagesTouchedBy(c, [&] { lag = store.outboxLag(); });
  INFO("pages of a 20,000-event outbox read for its lag: " << pages);
  CHECK(lag > 0.0);
  // An index probe: a root, a leaf and the row's page; the table itself has thousands.
  CHECK(pages <= 10);
  CHECK(outboxPagesTouchedBy(c, [] {}) == 0);
}

TEST_CASE(
    "dispatch statements: a fan-out reads the outbox's index, not the pages a drained backlog "
    "left behind",
    "[.pg]") {
  pg_test::ScratchDatabase db("dispatch_drained");
  pqxx::connection c(db.url());
  prepareWithOutboxUnvacuumed(c);
  Queues queues;
  queues.createWebhook(c);
  // A burst fanned out, then vacuumed and analysed as autovacuum does while submissions go on:
  // its rows gone, its pages kept behind the newest events (which stop a truncation). Both a
  // read of the heap and a walk of the index are then costed as reading every page; the heap
  // was chosen, and a 900 MB outbox was read at every fan-out (two thirds of a core, idle).
  queues.addOutbox(c, 20000);
  exec(c,
       "DELETE FROM responses.outbox_events"
       " WHERE id < (SELECT max(id) - 4 FROM responses.outbox_events)");
  exec(c, "VACUUM ANALYZE responses.outbox_events");
  const long heap_pages = pqxx::nontransaction(c)
                              .exec1("SELECT pg_relation_size('responses.outbox_events') / 8192")[0]
                              .as<long>();
  PgDispatchStore store(c);
  PgDispatchStore::FannedOut fanned{};
  const long pages = outboxPagesTouchedBy(c, [&] { fanned = store.fanOut(500); });
  INFO("pages of a drained outbox of " << heap_pages << " pages read by a fan-out: " << pages);
  CHECK(heap_pages > 1000);
  CHECK(fanned.rows == 5);
  CHECK(pages <= 50);
}
