// PgDispatchStore::fanOut against a real PostgreSQL (scratch_database.h): every outbox row
// leaves with a send per webhook that wants each of its events, a one-shot row as its two
// events in order. Needs a database, so it is hidden from the unit run ("[.pg]") and run by
// the integration tests (tests/integration/test_webhooks.py); without one it fails.
#include <catch2/catch.hpp>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "common/core/ids.h"
#include "services/webhooks/pg_dispatch_store.h"
#include "tests/unit/support/scratch_database.h"

using namespace feedback;
using namespace feedback::webhooks;
using pg_test::exec;

namespace {

std::vector<std::string> column(pqxx::connection& c, const std::string& query) {
  pqxx::nontransaction tx(c);
  std::vector<std::string> out;
  for (const auto& row : tx.exec(query)) out.push_back(row[0].c_str());
  return out;
}

std::string webhook(pqxx::connection& c, const std::string& workspace, const std::string& events,
                    const std::string& link = "") {
  const std::string uuid = newUuid();
  exec(c,
       "INSERT INTO webhooks.webhooks (uuid, workspace_uuid, link_uuid, url, events, enabled,"
       " secret_sealed) VALUES ('" +
           uuid + "', '" + workspace + "', " + (link.empty() ? "NULL" : "'" + link + "'") +
           ", 'https://example.com/', '" + events + "', true, 'x')");
  return uuid;
}

// An outbox row; `started` names a one-shot row's response.started event.
void outbox(pqxx::connection& c, const std::string& event, const std::string& type,
            const std::string& started, const std::string& workspace, const std::string& link,
            const std::string& payload) {
  exec(c,
       "INSERT INTO responses.outbox_events (event_id, type, started_event_id, workspace_uuid,"
       " link_uuid, response_uuid, payload) VALUES ('" +
           event + "', '" + type + "', " + (started.empty() ? "NULL" : "'" + started + "'") +
           ", '" + workspace + "', '" + link + "', gen_random_uuid(), '" + payload + "')");
}

}  // namespace

TEST_CASE("fan-out: each event to the webhooks that want it, a one-shot row as its two events",
          "[.pg]") {
  pg_test::ScratchDatabase db("fan_out");
  pqxx::connection c(db.url());
  PgDispatchStore::prepareDispatcher(c);
  const std::string a = newUuid(), b = newUuid(), link = newUuid(), other_link = newUuid();
  const std::string both = webhook(c, a, "{response.started,response.submitted}");
  const std::string submitted_only = webhook(c, a, "{response.submitted}");
  const std::string of_other_link = webhook(c, a, "{response.submitted}", other_link);

  const std::string started = newUuid();
  outbox(c, started, "response.started", "", a, link, R"({"type":"response.started","n":1})");
  const std::string one_shot = newUuid(), one_shot_started = newUuid();
  outbox(c, one_shot, "response.submitted", one_shot_started, a, link,
         R"({"type":"response.submitted","n":2})");
  // A payload whose type is not its first member (none is written so today) still gives a
  // started event with the right type.
  const std::string odd = newUuid(), odd_started = newUuid();
  outbox(c, odd, "response.submitted", odd_started, a, other_link,
         R"({"n":3,"type":"response.submitted"})");
  outbox(c, newUuid(), "response.submitted", "", b, newUuid(), R"({"type":"response.submitted"})");

  PgDispatchStore store(c);
  auto moved = store.fanOut(500);
  CHECK(moved.rows == 4);
  CHECK(moved.events == 6);
  CHECK(moved.sends == 8);
  CHECK(column(c, "SELECT count(*) FROM responses.outbox_events") == std::vector<std::string>{"0"});

  // Each webhook's sends, queued in the events' order: a one-shot row's started event first.
  auto sends = [&](const std::string& hook) {
    return column(
        c, "SELECT event_id FROM webhooks.pending WHERE webhook_uuid = '" + hook + "' ORDER BY id");
  };
  CHECK(sends(both) ==
        std::vector<std::string>{started, one_shot_started, one_shot, odd_started, odd});
  CHECK(sends(submitted_only) == std::vector<std::string>{one_shot, odd});
  CHECK(sends(of_other_link) == std::vector<std::string>{odd});

  // The kept payloads: as stored for the row's own event, the type swapped for the other.
  auto payload = [&](const std::string& event) {
    auto rows = column(
        c, "SELECT type || ' ' || payload FROM webhooks.events WHERE event_id = '" + event + "'");
    REQUIRE(rows.size() == 1);
    return rows[0];
  };
  CHECK(payload(one_shot) == R"(response.submitted {"type":"response.submitted","n":2})");
  CHECK(payload(one_shot_started) == R"(response.started {"type":"response.started","n":2})");
  CHECK(payload(odd) == R"(response.submitted {"n":3,"type":"response.submitted"})");
  CHECK(column(c,
               "SELECT type || ' ' || (payload::jsonb ->> 'type') || ' ' ||"
               " (payload::jsonb ->> 'n') FROM webhooks.events WHERE event_id = '" +
                   odd_started + "'") ==
        std::vector<std::string>{"response.started response.started 3"});
  // Nobody wants workspace b's event: nothing is kept of it.
  CHECK(column(c, "SELECT count(*) FROM webhooks.events WHERE workspace_uuid = '" + b + "'") ==
        std::vector<std::string>{"0"});
}
