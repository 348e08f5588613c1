#include "services/responses/erasure/pg_erasure_store.h"

#include <pqxx/pqxx>

#include "common/pg/deadlock_retry.h"
#include "common/pg/pg_array.h"
#include "common/pg/sql_text.h"
#include "services/responses/pg_responses_store.h"

namespace feedback::responses {
namespace {

// Each selection locks its rows through an index: the response's primary key; the
// workspace's folded emails (responses_by_folded_email, migration 016); the workspace's
// responses by status and time (responses_by_workspace). What a batch erases is then found
// through indexes on response_uuid alone, whatever the tables hold.
#define LOCKED_COLUMNS "SELECT uuid::text, link_uuid::text"

constexpr const char* kLockResponse = "erasure_lock_response";
constexpr const char* kLockResponseSql = LOCKED_COLUMNS
    " FROM responses.responses WHERE workspace_uuid = $1 AND uuid = $2 AND link_uuid = $3"
    " FOR UPDATE";

// Rows being written are waited for, not skipped: a respondent's erasure must take them too.
constexpr const char* kLockByEmail = "erasure_lock_by_email";
constexpr const char* kLockByEmailSql = LOCKED_COLUMNS
    " FROM responses.responses WHERE workspace_uuid = $1 AND respondent_email IS NOT NULL"
    " AND lower(respondent_email) = lower($2) LIMIT $3 FOR UPDATE";

// Retention: rows another replica's batch holds are skipped (each is erased once).
constexpr const char* kLockExpired = "erasure_lock_expired";
constexpr const char* kLockExpiredSql = LOCKED_COLUMNS
    " FROM responses.responses WHERE workspace_uuid = $1"
    " AND status IN ('completed', 'in_progress') AND sort_at < " FROM_MICROS(
        "$2") " LIMIT $3 FOR UPDATE SKIP LOCKED";

#undef LOCKED_COLUMNS

// Events not yet fanned out. A dispatcher fanning them out now holds them: this waits for it,
// and the next statement (a new snapshot) finds the sends it queued.
constexpr const char* kDeleteOutbox = "erasure_delete_outbox";
constexpr const char* kDeleteOutboxSql =
    "DELETE FROM responses.outbox_events WHERE response_uuid = ANY ($1::uuid[])";

// Not prepared: a connection is made and prepared before the webhooks service's migration may
// have made the function (only an erasure then fails, with a 503).
constexpr const char* kCancelSendsSql = "SELECT webhooks.erase_response_events($1::uuid[])";

// The rows, their facts, insight jobs and blobs (their chunks and speech-server jobs go by
// ON DELETE CASCADE), and the links' counts, which a row of this worker's shard lowers.
constexpr const char* kEraseRows = "erasure_erase_rows";
constexpr const char* kEraseRowsSql =
    "WITH erased AS ("
    "  DELETE FROM responses.responses WHERE uuid = ANY ($1::uuid[])"
    "  RETURNING workspace_uuid, link_uuid, status),"
    " facts AS (DELETE FROM responses.response_facts WHERE response_uuid = ANY ($1::uuid[])),"
    " jobs AS (DELETE FROM responses.insight_jobs WHERE response_uuid = ANY ($1::uuid[])),"
    " blobs AS (DELETE FROM responses.blobs WHERE response_uuid = ANY ($1::uuid[])),"
    " counted AS ("
    "  INSERT INTO responses.link_counts (link_uuid, shard, workspace_uuid, started, completed)"
    "  SELECT link_uuid, $2, workspace_uuid, -count(*),"
    "    -count(*) FILTER (WHERE status = 'completed') FROM erased"
    "  GROUP BY link_uuid, workspace_uuid ORDER BY link_uuid"
    "  ON CONFLICT (link_uuid, shard) DO UPDATE SET started = link_counts.started"
    "    + EXCLUDED.started, completed = link_counts.completed + EXCLUDED.completed)"
    " SELECT count(*) FROM erased";

// The tokens service's workspaces (its schema), read as the webhooks dispatcher reads the
// outbox: one database, each service's tables its own to write.
constexpr const char* kRetentions = "erasure_retentions";
constexpr const char* kRetentionsSql =
    "SELECT uuid::text, retention_days FROM tokens.workspaces WHERE retention_days > 0"
    " ORDER BY uuid";

constexpr const char* kOldest = "erasure_oldest";
constexpr const char* kOldestSql =
    "SELECT " MICROS("min(sort_at)") " FROM ("
    " (SELECT sort_at FROM responses.responses WHERE workspace_uuid = $1"
    "  AND status = 'completed' ORDER BY sort_at LIMIT 1)"
    " UNION ALL"
    " (SELECT sort_at FROM responses.responses WHERE workspace_uuid = $1"
    "  AND status = 'in_progress' ORDER BY sort_at LIMIT 1)) AS firsts";

}  // namespace

void PgErasureStore::prepare(pqxx::connection& c) {
  c.prepare(kLockResponse, kLockResponseSql);
  c.prepare(kLockByEmail, kLockByEmailSql);
  c.prepare(kLockExpired, kLockExpiredSql);
  c.prepare(kDeleteOutbox, kDeleteOutboxSql);
  c.prepare(kEraseRows, kEraseRowsSql);
}

void PgErasureStore::prepareSession(pqxx::connection& c) {
  // A batch begins its links in Redis before it commits, and must commit or fail well within
  // responsecount::kPendingMaxAgeMs of that (common/redis/response_counts.h), as submissions do.
  c.set_variable("statement_timeout", "'60s'");
  c.set_variable("idle_in_transaction_session_timeout", "'60s'");
  prepare(c);
}

void PgErasureStore::prepareRetention(pqxx::connection& c) {
  prepareSession(c);
  c.prepare(kRetentions, kRetentionsSql);
  c.prepare(kOldest, kOldestSql);
}

std::vector<ErasedResponse> PgErasureStore::eraseBatch(
    const ErasureSelection& selection, int limit,
    const std::function<void(const std::vector<ErasedResponse>&)>& locked) {
  return pg::retryOnDeadlock([&] {
    pqxx::work tx(connection_);
    // The outbox, the insight jobs and the webhooks' queues swing from empty to a backlog faster
    // than their statistics follow: planned as empty, a batch would read such a table whole (as
    // the dispatcher's statements would: pg_dispatch_store.cc). Every statement here has an
    // index to probe; none is to read a heap whole.
    tx.exec("SET LOCAL enable_seqscan TO off");
    std::vector<ErasedResponse> erased;
    PgArray uuids(PgArray::Element::kUuid);
    const auto& s = selection;
    const pqxx::result rows =
        s.response_uuid
            ? tx.exec_prepared(kLockResponse, s.workspace_uuid, *s.response_uuid, s.link_uuid)
        : s.email ? tx.exec_prepared(kLockByEmail, s.workspace_uuid, *s.email, limit)
                  : tx.exec_prepared(kLockExpired, s.workspace_uuid,
                                     s.older_than_micros.value_or(0), limit);
    for (const auto& row : rows) {
      erased.push_back({row[0].as<std::string>(), row[1].as<std::string>()});
      uuids.add(erased.back().uuid);
    }
    if (erased.empty()) return erased;
    locked(erased);
    tx.exec_prepared(kDeleteOutbox, uuids.param());
    tx.exec_params(kCancelSendsSql, uuids.param());
    tx.exec_prepared1(kEraseRows, uuids.param(), countShard());
    tx.commit();
    return erased;
  });
}

std::vector<Retention> PgErasureStore::retentions() {
  pqxx::read_transaction tx(connection_);
  std::vector<Retention> out;
  for (const auto& row : tx.exec_prepared(kRetentions)) {
    out.push_back({row[0].as<std::string>(), row[1].as<int>()});
  }
  return out;
}

std::optional<int64_t> PgErasureStore::oldestResponseMicros(const std::string& workspace_uuid) {
  pqxx::read_transaction tx(connection_);
  auto row = tx.exec_prepared1(kOldest, workspace_uuid);
  if (row[0].is_null()) return std::nullopt;
  return row[0].as<int64_t>();
}

}  // namespace feedback::responses
