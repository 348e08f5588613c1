#include "services/webhooks/pg_dispatch_store.h"

#include <algorithm>

#include <pqxx/pqxx>

#include "common/pg/pg_array.h"
#include "common/webhooks/webhook_rules.h"
#include "services/webhooks/dispatch_channel.h"

namespace feedback::webhooks {
namespace {

// Every statement here touches only the rows it takes, whatever the outbox, the queued sends
// or the kept events hold: a queue swings from empty to a backlog of hundreds of thousands
// within seconds, faster than statistics follow (autovacuum analyses the outbox while the
// dispatcher keeps it empty), so a shape that is cheap only under a right guess of a table's
// size melts down exactly when a burst comes. Three rules give the planner one sensible plan:
// - rows are chosen (and locked) by an ARRAY(...) subquery, an InitPlan that runs once. As
//   `id IN (subquery)` it was a semi-join, which, believing the outbox empty, put the outbox
//   outside and ran the locking subquery again for each of its rows: minutes per batch.
// - chosen rows are then reached by `id = ANY (that array)`, and `id` leads only the primary
//   key (webhooks/005): no index of the table can be walked whole to find an id.
// - a row of another queue (a send's event) is fetched in a LATERAL subquery with LIMIT 1: a
//   subquery with a LIMIT is planned on its own, as one probe of the primary key, where a join
//   let the planner, believing the table empty, walk all of its index once per send.
// What these rules leave to the planner is a probe or a read of a table whole, and it costs the
// latter by the table's pages on disk, not by its statistics. dispatch_statements_cost_test.cc
// checks the pages each statement reads on backlogs of 10,000 and 100,000 with statistics taken
// while the queues were empty.

// Outbox ids grow with time: the first one is the oldest event, found on the primary key.
constexpr const char* kOutboxLag = "webhooks_outbox_lag";
constexpr const char* kOutboxLagSql =
    "SELECT coalesce(extract(epoch FROM clock_timestamp() - ("
    "  SELECT created_at FROM responses.outbox_events ORDER BY id LIMIT 1)), 0)::float8";

// Deleting the outbox rows and queueing their sends is one statement: an event leaves the
// outbox only together with every send it needs. An event of a link whose on_finished webhook
// the links service has not told this service about yet (a row in links.webhook_changes) waits
// until it has: fanned out now, it would miss that webhook. The change commits with the link,
// before any response to it can, so a snapshot that sees the event sees the change or, once it
// is gone, the webhook it became.
// A one-shot row (started_event_id set) is its response's response.submitted event and stands
// also for its response.started, which comes first, with the row's payload but for the type
// ($3 swapped for $4, webhook_rules.h), made only when a webhook wants it. A payload that does
// not begin as promised (none does today) gets its type set through jsonb instead, slower but
// right: one such row must not stop the fan-out of every other.
// Joins to each outbox row `t` its events `e`, in order: a one-shot row's response.started
// (NULL event_id for other rows), then the row's own.
#define WITH_EVENTS_OF_ROW                                                                 \
  " CROSS JOIN LATERAL (VALUES (0, t.started_event_id, $2), (1, t.event_id, t.type)) AS e" \
  " (nth, event_id, type)"
constexpr const char* kFanOut = "webhooks_fan_out";
constexpr const char* kFanOutSql =
    "WITH taken AS ("
    "  DELETE FROM responses.outbox_events WHERE id = ANY (ARRAY ("
    "    SELECT o.id FROM responses.outbox_events o WHERE NOT EXISTS ("
    "      SELECT 1 FROM links.webhook_changes c WHERE c.link_uuid = o.link_uuid)"
    "    ORDER BY o.id LIMIT $1 FOR UPDATE SKIP LOCKED))"
    "  RETURNING id, event_id, type, started_event_id, workspace_uuid, link_uuid, response_uuid,"
    "    payload, created_at),"
    " targets AS ("
    "  SELECT t.id, e.nth, e.event_id, w.uuid AS webhook_uuid FROM taken t" WITH_EVENTS_OF_ROW
    "  JOIN webhooks.webhooks w ON w.workspace_uuid = t.workspace_uuid AND w.enabled"
    "    AND e.type = ANY (w.events) AND (w.link_uuid IS NULL OR w.link_uuid = t.link_uuid)"
    "  WHERE e.event_id IS NOT NULL),"
    // Only the events a webhook wants are kept, and only their payloads made.
    " kept AS ("
    "  INSERT INTO webhooks.events (event_id, type, workspace_uuid, link_uuid, response_uuid,"
    "    payload, created_at)"
    "  SELECT e.event_id, e.type, t.workspace_uuid, t.link_uuid, t.response_uuid,"
    "    CASE WHEN e.nth = 1 THEN"
    "    t.payload WHEN starts_with(t.payload, $3) THEN $4 || substr(t.payload, length($3) + 1)"
    "    ELSE jsonb_set(t.payload::jsonb, '{type}', to_jsonb($2::text))::text END, t.created_at"
    "  FROM taken t" WITH_EVENTS_OF_ROW
    " WHERE e.event_id IN (SELECT event_id FROM targets)"
    "  ON CONFLICT (event_id) DO NOTHING),"
    " queued AS ("
    "  INSERT INTO webhooks.pending (webhook_uuid, event_id)"
    "  SELECT webhook_uuid, event_id FROM targets ORDER BY id, nth RETURNING 1)"
    " SELECT (SELECT count(*) FROM taken),"
    "   (SELECT count(*) + count(started_event_id) FROM taken), (SELECT count(*) FROM queued)";
#undef WITH_EVENTS_OF_ROW

// `hooks`: the webhooks that have sends queued, one index probe each (a skip scan of
// pending_by_webhook_due; the last row is NULL).
#define WEBHOOKS_WITH_SENDS                                                     \
  "WITH RECURSIVE hooks AS ("                                                   \
  "  (SELECT webhook_uuid FROM webhooks.pending ORDER BY webhook_uuid LIMIT 1)" \
  "  UNION ALL"                                                                 \
  "  SELECT (SELECT p.webhook_uuid FROM webhooks.pending p"                     \
  "    WHERE p.webhook_uuid > h.webhook_uuid ORDER BY p.webhook_uuid LIMIT 1)"  \
  "  FROM hooks h WHERE h.webhook_uuid IS NOT NULL)"

// Due sends, at most `per_webhook` per webhook less those it has in flight, so that one slow
// receiver's backlog never fills a claim or slows it: the webhooks with queued sends are
// walked by a skip scan of pending_by_webhook_due (one probe each), and each gives its oldest
// due sends, none when it is at its limit. `due_at` is in the locking subquery's own WHERE:
// a row another dispatcher claimed since this statement's snapshot is re-checked when its
// lock is taken and skipped, rather than sent twice. now() (the statement's transaction's
// start), not clock_timestamp(): a volatile bound could not be an index condition. A disabled
// webhook gets only the sends someone asked for (`requested`: redeliveries and test events).
// The sends chosen are leased through the primary key (see the rules above).
constexpr const char* kClaim = "webhooks_claim";
constexpr const char* kClaimSql = WEBHOOKS_WITH_SENDS
    ","
    " due AS ("
    "  SELECT q.id FROM hooks h JOIN webhooks.webhooks w ON w.uuid = h.webhook_uuid"
    "  LEFT JOIN unnest($1::uuid[], $2::bigint[]) AS busy (webhook_uuid, sending)"
    "    ON busy.webhook_uuid = h.webhook_uuid"
    "  CROSS JOIN LATERAL ("
    "    SELECT p.id FROM webhooks.pending p"
    "    WHERE p.webhook_uuid = h.webhook_uuid AND p.due_at <= now()"
    "      AND (w.enabled OR p.requested)"
    "    ORDER BY p.webhook_uuid, p.due_at"  // the index's order: read, not sorted
    "    LIMIT greatest($3 - coalesce(busy.sending, 0), 0)"
    "    FOR UPDATE SKIP LOCKED) q"
    "  LIMIT $4),"
    " claimed AS ("
    "  UPDATE webhooks.pending p SET due_at = clock_timestamp() + $5 * interval '1 millisecond'"
    "  WHERE p.id = ANY (ARRAY (SELECT id FROM due))"
    "  RETURNING p.id, p.webhook_uuid, p.event_id, p.attempts, p.redelivery)"
    " SELECT c.id, c.webhook_uuid, c.event_id, e.type, e.payload, w.url, w.secret_sealed,"
    "   c.attempts, c.redelivery, e.workspace_uuid"
    " FROM claimed c"
    " CROSS JOIN LATERAL (SELECT type, payload, workspace_uuid FROM webhooks.events"
    "   WHERE event_id = c.event_id LIMIT 1) e"
    " JOIN webhooks.webhooks w ON w.uuid = c.webhook_uuid ORDER BY c.id";

// Sends claimed for events whose payload an erasure dropped (see claim()).
constexpr const char* kDropErased = "webhooks_drop_erased";
constexpr const char* kDropErasedSql = "DELETE FROM webhooks.pending WHERE id = ANY ($1::bigint[])";

constexpr const char* kNextDue = "webhooks_next_due";
// Webhooks at their limit are left out: their due sends wait for a send of theirs to end,
// which wakes the loop, and would otherwise make it spin.
constexpr const char* kNextDueSql = WEBHOOKS_WITH_SENDS
    " SELECT (extract(epoch FROM min(first.due_at) - clock_timestamp()) * 1000)::bigint"
    " FROM hooks h JOIN webhooks.webhooks w ON w.uuid = h.webhook_uuid"
    " LEFT JOIN unnest($1::uuid[], $2::bigint[]) AS busy (webhook_uuid, sending)"
    "   ON busy.webhook_uuid = h.webhook_uuid"
    " CROSS JOIN LATERAL ("
    "   SELECT p.due_at FROM webhooks.pending p WHERE p.webhook_uuid = h.webhook_uuid"
    "     AND (w.enabled OR p.requested)"
    "   ORDER BY p.webhook_uuid, p.due_at LIMIT 1) first"
    " WHERE coalesce(busy.sending, 0) < $3";

// One statement per batch of attempts. A webhook deleted while its event was in flight has
// no row left to record against: its attempts are dropped with it. A send that failed is
// rescheduled, unless its webhook is disabled (now, by a 410 in this batch, or before) and
// nobody asked for it: then it is dropped, with the disabled webhook's other queued sends.
#define WEBHOOK_STAYS_ENABLED(p, g)                                   \
  "(" p ".requested OR (" g                                           \
  ".webhook_uuid NOT IN (SELECT webhook_uuid FROM gone)"              \
  "  AND EXISTS (SELECT 1 FROM webhooks.webhooks w WHERE w.uuid = " p \
  ".webhook_uuid"                                                     \
  "    AND w.enabled)))"
constexpr const char* kRecord = "webhooks_record";
constexpr const char* kRecordSql =
    "WITH given AS ("
    "  SELECT * FROM unnest($1::bigint[], $2::uuid[], $3::uuid[], $4::uuid[], $5::bigint[],"
    "    $6::text[], $7::text[], $8::bigint[], $9::bigint[], $10::text[], $11::text[],"
    "    $12::bigint[], $13::text[])"
    "  AS g (pending_id, uuid, webhook_uuid, event_id, attempt, redelivery, succeeded,"
    "    status_code, duration_ms, error, response_body, retry_ms, disable)),"
    " gone AS (SELECT DISTINCT webhook_uuid FROM given WHERE disable = 't'),"
    " recorded AS ("
    "  INSERT INTO webhooks.deliveries (uuid, webhook_uuid, event_id, attempt, redelivery,"
    "    succeeded, status_code, duration_ms, error, response_body, next_attempt_at)"
    "  SELECT g.uuid, g.webhook_uuid, g.event_id, g.attempt, g.redelivery::boolean,"
    "    g.succeeded::boolean, g.status_code, g.duration_ms, g.error,"
    // A send already under way when its response was erased: what the receiver answered (it
    // may echo the payload) is not kept either. The event is held while the attempt is
    // recorded: an erasure either waits and then clears the attempt's answer, or came first.
    "    CASE WHEN e.payload IS NULL THEN NULL ELSE g.response_body END,"
    "    clock_timestamp() + g.retry_ms * interval '1 millisecond'"
    "  FROM given g JOIN webhooks.webhooks w ON w.uuid = g.webhook_uuid"
    "  CROSS JOIN LATERAL (SELECT payload FROM webhooks.events"
    "    WHERE event_id = g.event_id LIMIT 1 FOR SHARE) e),"
    " finished AS ("
    "  DELETE FROM webhooks.pending p USING given g"
    "  WHERE p.id = g.pending_id AND p.id = ANY ($1::bigint[])"
    "    AND (g.retry_ms IS NULL OR NOT " WEBHOOK_STAYS_ENABLED("p", "g") ")),"
    " rescheduled AS ("
    "  UPDATE webhooks.pending p SET attempts = g.attempt,"
    "    due_at = clock_timestamp() + g.retry_ms * interval '1 millisecond'"
    "  FROM given g WHERE p.id = g.pending_id AND p.id = ANY ($1::bigint[])"
    "    AND g.retry_ms IS NOT NULL AND " WEBHOOK_STAYS_ENABLED("p", "g") "),"
    " disabled AS ("
    "  UPDATE webhooks.webhooks w SET enabled = false, date_updated = clock_timestamp(),"
    "    disabled_reason = 'The receiver answered 410 Gone.'"
    "  FROM gone WHERE w.uuid = gone.webhook_uuid RETURNING w.uuid)"
    " DELETE FROM webhooks.pending p WHERE p.webhook_uuid = ANY (ARRAY (SELECT uuid FROM disabled))"
    "   AND NOT p.requested AND p.id <> ALL ($1::bigint[])";
#undef WEBHOOK_STAYS_ENABLED

// The deliveries listing keeps a month of attempts; events go with their last delivery,
// unless a send still waits for them. Oldest first and bounded per call, so that one call
// never holds locks for long; the caller calls again while a call takes a whole batch.
constexpr const char* kPrune = "webhooks_prune";
constexpr const char* kPruneSql =
    "WITH old AS ("
    "  DELETE FROM webhooks.deliveries WHERE uuid IN ("
    "    SELECT uuid FROM webhooks.deliveries"
    "    WHERE date_created < clock_timestamp() - $1 * interval '1 day'"
    "    ORDER BY date_created LIMIT $2)"
    "  RETURNING uuid),"
    " unused AS ("
    "  DELETE FROM webhooks.events WHERE event_id IN ("
    "    SELECT e.event_id FROM webhooks.events e"
    "    WHERE e.created_at < clock_timestamp() - $1 * interval '1 day'"
    "      AND NOT EXISTS (SELECT 1 FROM webhooks.pending p WHERE p.event_id = e.event_id)"
    "      AND NOT EXISTS (SELECT 1 FROM webhooks.deliveries d WHERE d.event_id = e.event_id"
    "        AND d.uuid NOT IN (SELECT uuid FROM old))"
    // An event an erasure holds (it locks events, then their deliveries) is left for the next
    // call, rather than waited for while this one holds deliveries: no deadlock.
    "    ORDER BY e.created_at LIMIT $2 FOR UPDATE OF e SKIP LOCKED)"
    "  RETURNING 1)"
    " SELECT (SELECT count(*) FROM old), (SELECT count(*) FROM unused)";

#undef WEBHOOKS_WITH_SENDS

// What a receiver answered is kept as text; bytes that are not UTF-8 would be refused.
std::string printable(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (unsigned char c : bytes) out += (c >= 0x20 && c < 0x7f) || c == '\n' ? char(c) : '?';
  return out;
}

// The webhooks with sends in flight and how many, as the claim's parameters.
std::pair<PgArray, PgArray> busyArrays(const Busy& busy) {
  std::pair<PgArray, PgArray> arrays{PgArray(PgArray::Element::kUuid),
                                     PgArray(PgArray::Element::kBigint)};
  for (std::size_t i = 0; i < busy.webhook_uuids.size(); ++i) {
    arrays.first.add(busy.webhook_uuids[i]);
    arrays.second.add(busy.sending[i]);
  }
  return arrays;
}

}  // namespace

void PgDispatchStore::prepareDispatcher(pqxx::connection& c) {
  pqxx::nontransaction session(c);
  session.exec("SET synchronous_commit TO off");
  // The queue's size swings from empty to a backlog within seconds: a generic plan made
  // while it was small (seq scans, hash joins) melts down once it is not. Plan each call.
  session.exec("SET plan_cache_mode TO force_custom_plan");
  // Every statement here probes indexes (the rules above); none is to read a queue's heap,
  // whatever the queue's statistics say. Once a backlog has been drained and vacuumed under
  // load, the outbox's statistics say it holds a few rows while its heap keeps the backlog's
  // pages (the newest events stop a truncation): a read of the heap and a walk of the
  // primary key are then costed alike, as reading every page, and the planner took the heap,
  // a whole 900 MB outbox read at every fan-out. So did the outbox lag's generic plan (it has
  // no parameter, and plan_cache_mode cannot make such a statement plan again) when made
  // while the outbox was empty: a read and a sort of every page of the next backlog, once a
  // second. A table with no usable index is still read whole: this only tips the balance.
  session.exec("SET enable_seqscan TO off");
  prepare(c);
}

void PgDispatchStore::prepare(pqxx::connection& c) {
  c.prepare(kFanOut, kFanOutSql);
  c.prepare(kOutboxLag, kOutboxLagSql);
  c.prepare(kClaim, kClaimSql);
  c.prepare(kDropErased, kDropErasedSql);
  c.prepare(kNextDue, kNextDueSql);
  c.prepare(kRecord, kRecordSql);
  preparePrune(c);
}

void PgDispatchStore::preparePrune(pqxx::connection& c) {
  c.prepare(kPrune, kPruneSql);
}

PgDispatchStore::FannedOut PgDispatchStore::fanOut(int limit) {
  pqxx::work tx(connection_);
  auto row =
      tx.exec_prepared1(kFanOut, limit, std::string(kResponseStarted),
                        std::string(kSubmittedPayloadPrefix), std::string(kStartedPayloadPrefix));
  // Delivered at the commit, to this dispatcher too: whoever has room claims the sends.
  if (row[2].as<int>() > 0) notifyPending(tx);
  tx.commit();
  return {row[0].as<int>(), row[1].as<int>(), row[2].as<int>()};
}

double PgDispatchStore::outboxLag() {
  pqxx::nontransaction tx(connection_);
  return std::max(0.0, tx.exec_prepared1(kOutboxLag)[0].as<double>());
}

std::vector<Send> PgDispatchStore::claim(int limit, int per_webhook, const Busy& busy,
                                         Millis lease) {
  auto [webhooks, sending] = busyArrays(busy);
  pqxx::work tx(connection_);
  auto rows = tx.exec_prepared(kClaim, webhooks.param(), sending.param(), per_webhook, limit,
                               static_cast<int64_t>(lease.count()));
  std::vector<Send> out;
  out.reserve(rows.size());
  PgArray erased(PgArray::Element::kBigint);
  for (const auto& row : rows) {
    if (row[4].is_null()) {
      // Its response was erased after the send was queued (by a replica from before erasure
      // cancelled sends, during a rollout): there is nothing to send.
      erased.add(row[0].as<int64_t>());
      continue;
    }
    Send& s = out.emplace_back();
    s.pending_id = row[0].as<int64_t>();
    s.webhook_uuid = row[1].as<std::string>();
    s.event_id = row[2].as<std::string>();
    s.event_type = row[3].as<std::string>();
    s.payload = row[4].as<std::string>();
    s.url = row[5].as<std::string>();
    s.sealed_secret = row[6].as<std::string>();
    s.attempt = row[7].as<int>() + 1;
    s.redelivery = row[8].as<bool>();
    s.workspace_uuid = row[9].as<std::string>();
  }
  if (erased.size() > 0) tx.exec_prepared(kDropErased, erased.param());
  tx.commit();
  return out;
}

std::optional<Millis> PgDispatchStore::nextDue(int per_webhook, const Busy& busy) {
  auto [webhooks, sending] = busyArrays(busy);
  pqxx::read_transaction tx(connection_);
  auto row = tx.exec_prepared1(kNextDue, webhooks.param(), sending.param(), per_webhook);
  if (row[0].is_null()) return std::nullopt;
  return Millis(std::max<int64_t>(0, row[0].as<int64_t>()));
}

PgDispatchStore::Pruned PgDispatchStore::prune(int days, int batch) {
  pqxx::work tx(connection_);
  auto row = tx.exec_prepared1(kPrune, days, batch);
  tx.commit();
  return {row[0].as<int>(), row[1].as<int>()};
}

void PgDispatchStore::record(const std::vector<Attempt>& attempts) {
  using E = PgArray::Element;
  PgArray pending(E::kBigint), uuid(E::kUuid), webhook(E::kUuid), event(E::kUuid),
      attempt(E::kBigint), redelivery(E::kText), succeeded(E::kText), status(E::kBigint),
      duration(E::kBigint), error(E::kText), body(E::kText), retry(E::kBigint), disable(E::kText);
  for (const auto& a : attempts) {
    pending.add(a.send.pending_id);
    uuid.add(a.delivery_uuid);
    webhook.add(a.send.webhook_uuid);
    event.add(a.send.event_id);
    attempt.add(int64_t{a.send.attempt});
    redelivery.add(a.send.redelivery ? "t" : "f");
    succeeded.add(a.outcome.succeeded ? "t" : "f");
    if (a.result.status > 0) {
      status.add(int64_t{a.result.status});
    } else {
      status.addNull();
    }
    duration.add(static_cast<int64_t>(a.result.latency.count()));
    if (a.result.error.empty()) {
      error.addNull();
    } else {
      error.add(a.result.error);
    }
    body.add(printable(a.result.body_excerpt));
    if (a.outcome.retry_in) {
      retry.add(static_cast<int64_t>(a.outcome.retry_in->count()));
    } else {
      retry.addNull();
    }
    disable.add(a.outcome.disable ? "t" : "f");
  }
  pqxx::work tx(connection_);
  tx.exec_prepared(kRecord, pending.param(), uuid.param(), webhook.param(), event.param(),
                   attempt.param(), redelivery.param(), succeeded.param(), status.param(),
                   duration.param(), error.param(), body.param(), retry.param(), disable.param());
  tx.commit();
}

}  // namespace feedback::webhooks
