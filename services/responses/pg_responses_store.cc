#include "services/responses/pg_responses_store.h"

#include <boost/json/parse.hpp>
#include <cstdio>
#include <future>
#include <map>
#include <pqxx/pqxx>

#include "common/core/crypto.h"
#include "common/core/errors.h"
#include "common/pg/pg_array.h"
#include "common/questions/question_types.h"
#include "services/responses/response_columns.h"
#include "services/responses/response_queries.h"
#include "services/responses/stored_answers.h"
#include "services/responses/summary_facts.h"

namespace feedback::responses {
namespace {

namespace rv1 = feedback::responses::v1;

constexpr const char* kStatementTimeoutMs = "60000";

// New responses with their events and their links' counts, in one statement: committed on
// its own, all or nothing. Each column comes as one array of every row's values (PgArray);
// a batch costs one round trip and one executor start, not one of each per response. Counts
// are taken in link order, so that concurrent batches lock the rows they share in the same
// order and cannot deadlock.
constexpr const char* kInsertResponses = "responses_insert_responses";
constexpr const char* kInsertResponsesSql =
    "WITH given AS ("
    "  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[],"
    "    $6::text[], $7::text[], $8::text[], $9::text[], $10::bigint[], $11::bigint[],"
    "    $19::text[])"
    "  AS g (uuid, workspace_uuid, link_uuid, session_id, token_hash, status,"
    "    respondent_email, answers, search_text, started, submitted, facts)),"
    " response AS ("
    "  INSERT INTO responses.responses (uuid, workspace_uuid, link_uuid, session_id, token_hash,"
    "    status, respondent_email, answers, search_text, started_at, submitted_at, sort_at)"
    "  SELECT uuid, workspace_uuid, link_uuid, session_id, token_hash, status,"
    "    respondent_email, answers, search_text, " FROM_MICROS("started") ", " FROM_MICROS(
        "submitted") ", " FROM_MICROS("COALESCE(submitted, started)") " FROM given),"
    " events AS ("
    "  INSERT INTO responses.outbox_events (event_id, type, workspace_uuid, link_uuid,"
    "    response_uuid, payload, started_event_id)"
    "  SELECT * FROM unnest($12::uuid[], $13::text[], $14::uuid[], $15::uuid[], $16::uuid[],"
    "    $17::text[], $26::uuid[])),"
    " facts AS ("
    "  INSERT INTO responses.response_facts (response_uuid, workspace_uuid, link_uuid,"
    "    submitted_at, facts)"
    "  SELECT uuid, workspace_uuid, link_uuid, " FROM_MICROS("submitted") ", facts FROM given"
    "  WHERE submitted IS NOT NULL),"
    " jobs AS ("
    "  INSERT INTO responses.insight_jobs (workspace_uuid, response_uuid, answer_uuid,"
    "    question, custom_fields, text)"
    "  SELECT * FROM unnest($20::uuid[], $21::uuid[], $22::uuid[], $23::text[], $24::text[],"
    "    $25::text[])),"
    " counted AS ("
    "  INSERT INTO responses.link_counts (link_uuid, shard, workspace_uuid, started, completed)"
    "  SELECT link_uuid, $18, workspace_uuid, count(*), count(submitted) FROM given"
    "  GROUP BY link_uuid, workspace_uuid ORDER BY link_uuid"
    "  ON CONFLICT (link_uuid, shard) DO UPDATE SET started = link_counts.started"
    "    + EXCLUDED.started, completed = link_counts.completed + EXCLUDED.completed)"
    " SELECT 1";

// The layouts completed responses' facts name (summary_facts.h), unless already kept. A
// batch writes them in a statement of their own, committed before its facts: a statement
// that also counts the batch's links would hold a layout's row while it waits for a count's,
// which a submission of one response (kSaveResponse) takes in the other order.
constexpr const char* kInsertFactsLayouts = "responses_insert_facts_layouts";
constexpr const char* kInsertFactsLayoutsSql =
    "INSERT INTO responses.facts_layouts (link_uuid, id, question_uuids)"
    " SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING";

constexpr const char* kSelectForUpdate = "responses_select_for_update";
constexpr const char* kSelectForUpdateSql =
    "SELECT " RESPONSE_COLUMNS
    " FROM responses.responses WHERE workspace_uuid = $1 AND uuid = $2 FOR UPDATE";

constexpr const char* kSelectResponse = "responses_select_response";
constexpr const char* kSelectResponseSql = "SELECT " RESPONSE_COLUMNS
                                           " FROM responses.responses WHERE workspace_uuid = $1 "
                                           "AND uuid = $2";

// A changed response, with its event (if any) and, when it completes, its count.
constexpr const char* kSaveResponse = "responses_save_response";
constexpr const char* kSaveResponseSql =
    "WITH saved AS ("
    "  UPDATE responses.responses SET status = $2, answers = $3, search_text = $4,"
    "    submitted_at = " FROM_MICROS("$5") ", sort_at = COALESCE(" FROM_MICROS(
        "$5") ", started_at)"
              "  WHERE uuid = $1 RETURNING workspace_uuid, link_uuid),"
              " events AS ("
              "  INSERT INTO responses.outbox_events (event_id, type, workspace_uuid, link_uuid,"
              "    response_uuid, payload)"
              "  SELECT $6::uuid, $7, saved.workspace_uuid, saved.link_uuid, $1, $8 FROM saved"
              "  WHERE $6 IS NOT NULL),"
              " counted AS ("
              "  INSERT INTO responses.link_counts (link_uuid, shard, workspace_uuid, started,"
              "    completed)"
              "  SELECT saved.link_uuid, $9, saved.workspace_uuid, 0, 1 FROM saved WHERE $10"
              "  ON CONFLICT (link_uuid, shard) DO UPDATE"
              "    SET completed = link_counts.completed + 1),"
              // A completed response's facts, written when it completes (and rewritten when its
              // answers change later, as when insights arrive).
              " facts AS ("
              "  INSERT INTO responses.response_facts (response_uuid, workspace_uuid, link_uuid,"
              "    submitted_at, facts)"
              "  SELECT $1, saved.workspace_uuid, saved.link_uuid, " FROM_MICROS("$5") ", $11::text"
              "  FROM saved WHERE $11::text IS NOT NULL"
              "  ON CONFLICT (response_uuid) DO UPDATE SET facts = EXCLUDED.facts),"
              // A job queued for an answer's older text would only cost a model call.
              " superseded AS ("
              "  DELETE FROM responses.insight_jobs WHERE answer_uuid = ANY ($12::uuid[])),"
              " jobs AS ("
              "  INSERT INTO responses.insight_jobs (workspace_uuid, response_uuid, answer_uuid,"
              "    question, custom_fields, text)"
              "  SELECT saved.workspace_uuid, $1, j.* FROM saved, unnest($12::uuid[], $13::text[],"
              "    $14::text[], $15::text[]) AS j)"
              " SELECT 1";

constexpr const char* kCompletedCounts = "responses_completed_counts";
constexpr const char* kCompletedCountsSql =
    "SELECT link_uuid::text, sum(completed)::bigint FROM responses.link_counts "
    "WHERE workspace_uuid = $1 AND link_uuid = ANY($2::uuid[]) GROUP BY link_uuid";

// A link's summary facts, read through a cursor a batch at a time in one snapshot, in no
// particular order: a summary adds them up, and unordered the planner reads the heap in
// its own order (a bitmap scan), twice as fast as in the index's. Planned for all its rows
// (cursor_tuple_fraction), not for the first ones. The bounds are given as literals (a
// cursor's query takes no parameters), quoted.
constexpr int kSummaryBatch = 10000;
// A link's facts are read through its index, never by scanning every link's: when one link
// holds a large share of the table the planner would otherwise scan it all (1.7 million rows
// read for 100,000 of one link: 311 ms against 183 ms through the index). Nor is it
// compiled (JIT, off in every session: common/pg/connect.h), which took 22 ms of 150.
constexpr const char* kSummaryPlanning =
    "SET LOCAL cursor_tuple_fraction = 1.0; SET LOCAL enable_seqscan = off";
constexpr const char* kSummaryCursor =
    "DECLARE summary_facts NO SCROLL CURSOR FOR SELECT facts FROM responses.response_facts"
    " WHERE link_uuid = ";
const std::string kSummaryFetch =
    "FETCH FORWARD " + std::to_string(kSummaryBatch) + " FROM summary_facts";
// Read after the cursor is declared: every layout its facts name was committed with them.
constexpr const char* kSummaryLayouts = "responses_summary_layouts";
constexpr const char* kSummaryLayoutsSql =
    "SELECT id, question_uuids FROM responses.facts_layouts WHERE link_uuid = $1";

// Every response of a link within the bounds: the counts' rows when there are none, else the
// responses themselves (their time as lists bound it: the submission's, else the start's).
constexpr const char* kStartedCount = "responses_started_count";
constexpr const char* kStartedCountSql =
    "SELECT CASE WHEN $3::bigint IS NULL AND $4::bigint IS NULL THEN"
    "  (SELECT coalesce(sum(started), 0) FROM responses.link_counts"
    "   WHERE link_uuid = $2 AND workspace_uuid = $1)"
    " ELSE (SELECT count(*) FROM responses.responses WHERE workspace_uuid = $1"
    "   AND link_uuid = $2 AND ($3::bigint IS NULL OR sort_at >= " FROM_MICROS("$3") ")"
    "   AND ($4::bigint IS NULL OR sort_at <= " FROM_MICROS("$4") ")) END::bigint";

// Read along the facts' index (link, submitted_at): the days come out in order.
constexpr const char* kCompletedPerDay = "responses_completed_per_day";
constexpr const char* kCompletedPerDaySql =
    "SELECT to_char(submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)"
    " FROM responses.response_facts WHERE link_uuid = $2 AND workspace_uuid = $1"
    " AND ($3::bigint IS NULL OR submitted_at >= " FROM_MICROS("$3") ")"
    " AND ($4::bigint IS NULL OR submitted_at <= " FROM_MICROS("$4") ") GROUP BY 1 ORDER BY 1";

constexpr const char* kMergeSearchIndex = "responses_merge_search_index";
constexpr const char* kMergeSearchIndexSql =
    "SELECT gin_clean_pending_list('responses.responses_search_keys'::regclass)";

// Insight jobs as array parameters (workspace and response: only where a batch needs them).
struct InsightJobArrays {
  PgArray workspace{PgArray::Element::kUuid}, response{PgArray::Element::kUuid},
      answer{PgArray::Element::kUuid}, question{PgArray::Element::kText},
      custom_fields{PgArray::Element::kText}, text{PgArray::Element::kText};
  void add(const InsightJob& job) {
    answer.add(job.answer_uuid);
    question.add(job.question);
    custom_fields.add(job.custom_fields_json);
    text.add(job.text);
  }
};

// `parse`: the answers are wanted as objects (to be changed), not only as text.
StoredResponse storedFrom(const pqxx::row& row, bool parse = false) {
  StoredResponse out;
  auto& r = out.response;
  r.set_uuid(row[0].as<std::string>());
  r.set_session_id(row[1].as<std::string>());
  r.set_link_uuid(row[2].as<std::string>());
  r.set_status(row[3].as<std::string>());
  if (!row[4].is_null()) r.set_respondent_email(row[4].as<std::string>());
  r.set_started_at_micros(row[5].as<int64_t>());
  if (!row[6].is_null()) r.set_submitted_at_micros(row[6].as<int64_t>());
  r.set_answers_json(row[7].c_str(), row[7].size());
  if (parse) out.answers = parseAnswers(r.answers_json());
  out.workspace_uuid = row[8].as<std::string>();
  out.token_hash = row[9].as<std::string>();
  return out;
}

void appendSearchable(std::string& out, std::string_view text) {
  if (text.empty()) return;
  if (!out.empty()) out += '\n';
  for (char c : text) out += c == '\0' ? ' ' : c;
}

}  // namespace

int countShard() {
  static thread_local const int shard =
      static_cast<unsigned char>(crypto::randomBytes(1)[0]) % kCountShards;
  return shard;
}

std::string searchTextOf(const StoredResponse& stored) {
  std::string out;
  appendSearchable(out, stored.response.respondent_email());
  for (const auto& a : stored.answers) {
    questions::forEachTextOfJson(a.response_type(), a.value_json(),
                                 [&out](std::string_view text) { appendSearchable(out, text); });
    if (a.has_transcription()) appendSearchable(out, a.transcription());
    for (const auto& f : a.follow_ups()) appendSearchable(out, f.value());
  }
  return out;
}

void PgResponsesStore::prepareExports(pqxx::connection& c) {
  c.set_variable("statement_timeout", "'60s'");
  // An export holds a snapshot while its client reads: one that stalls this long is given up,
  // so that it cannot hold back vacuum for hours.
  c.set_variable("idle_in_transaction_session_timeout", "'10min'");
}

void PgResponsesStore::prepare(pqxx::connection& c) {
  c.set_variable("plan_cache_mode", "force_generic_plan");
  // A submission commits or fails well within responsecount::kPendingMaxAgeMs of its begin
  // (common/redis/response_counts.h relies on it): no statement, and no pause inside a
  // transaction, lasts longer than this.
  c.set_variable("statement_timeout", kStatementTimeoutMs);
  c.set_variable("idle_in_transaction_session_timeout", kStatementTimeoutMs);
  c.prepare(kInsertResponses, kInsertResponsesSql);
  c.prepare(kInsertFactsLayouts, kInsertFactsLayoutsSql);
  c.prepare(kSummaryLayouts, kSummaryLayoutsSql);
  c.prepare(kSelectForUpdate, kSelectForUpdateSql);
  c.prepare(kSelectResponse, kSelectResponseSql);
  c.prepare(kSaveResponse, kSaveResponseSql);
  c.prepare(kCompletedCounts, kCompletedCountsSql);
  c.prepare(kStartedCount, kStartedCountSql);
  c.prepare(kCompletedPerDay, kCompletedPerDaySql);
  prepareQueries(c);
}

void PgResponsesStore::prepareSearchIndexMerge(pqxx::connection& c) {
  c.prepare(kMergeSearchIndex, kMergeSearchIndexSql);
}

// Each column of kInsertResponses, rows in the order given; events in their responses' order,
// one outbox row each (a one-shot row stands for both its events).
void PgResponsesStore::insertResponses(const std::vector<const NewResponse*>& responses) {
  using E = PgArray::Element;
  PgArray uuid(E::kUuid), workspace(E::kUuid), link(E::kUuid), session(E::kText),
      token_hash(E::kText), status(E::kText), email(E::kText), answers(E::kText), search(E::kText),
      started(E::kBigint), submitted(E::kBigint), facts(E::kText);
  PgArray event_id(E::kUuid), event_type(E::kText), event_workspace(E::kUuid), event_link(E::kUuid),
      event_response(E::kUuid), payload(E::kText), started_event_id(E::kUuid);
  InsightJobArrays jobs;
  for (const auto* r : responses) {
    const auto& stored = r->stored;
    const auto& response = stored.response;
    uuid.add(response.uuid());
    workspace.add(stored.workspace_uuid);
    link.add(response.link_uuid());
    session.add(response.session_id());
    token_hash.add(stored.token_hash);
    status.add(response.status());
    if (response.has_respondent_email()) {
      email.add(response.respondent_email());
    } else {
      email.addNull();
    }
    answers.add(response.answers_json());
    search.add(searchTextOf(stored));
    const bool completed = response.submitted_at_micros() != 0;
    facts.add(completed ? summaryFacts(stored.answers, stored.facts_layout.get()) : std::string());
    started.add(response.started_at_micros());
    if (response.submitted_at_micros() != 0) {
      submitted.add(response.submitted_at_micros());
    } else {
      submitted.addNull();
    }
    for (const auto& job : stored.insight_jobs) {
      jobs.workspace.add(stored.workspace_uuid);
      jobs.response.add(response.uuid());
      jobs.add(job);
    }
    const auto& event = r->event;
    event_id.add(event.event_id);
    event_type.add(event.type);
    event_workspace.add(stored.workspace_uuid);
    event_link.add(response.link_uuid());
    event_response.add(response.uuid());
    payload.add(event.payload);
    if (event.started_event_id.empty()) {
      started_event_id.addNull();
    } else {
      started_event_id.add(event.started_event_id);
    }
  }
  pqxx::nontransaction tx(connection_);
  insertFactsLayouts(tx, responses);
  tx.exec_prepared(kInsertResponses, uuid.param(), workspace.param(), link.param(), session.param(),
                   token_hash.param(), status.param(), email.param(), answers.param(),
                   search.param(), started.param(), submitted.param(), event_id.param(),
                   event_type.param(), event_workspace.param(), event_link.param(),
                   event_response.param(), payload.param(), countShard(), facts.param(),
                   jobs.workspace.param(), jobs.response.param(), jobs.answer.param(),
                   jobs.question.param(), jobs.custom_fields.param(), jobs.text.param(),
                   started_event_id.param());
}

// The layouts of the batch's completed responses, each once, in order (link, then id).
void PgResponsesStore::insertFactsLayouts(pqxx::nontransaction& tx,
                                          const std::vector<const NewResponse*>& responses) {
  LayoutsToWrite layouts;
  for (const auto* r : responses) {
    const auto& layout = r->stored.facts_layout;
    if (!layout || layout->written() || r->stored.response.submitted_at_micros() == 0) continue;
    layouts.emplace(std::pair(r->stored.response.link_uuid(), layout->id()), layout.get());
  }
  insertFactsLayouts(tx, layouts);
  for (const auto& [key, layout] : layouts) layout->markWritten();
}

void PgResponsesStore::insertFactsLayouts(pqxx::transaction_base& tx,
                                          const LayoutsToWrite& layouts) {
  if (layouts.empty()) return;
  PgArray link(PgArray::Element::kUuid), id(PgArray::Element::kText),
      uuids(PgArray::Element::kText);
  for (const auto& [key, layout] : layouts) {
    link.add(key.first);
    id.add(key.second);
    uuids.add(layout->uuids());
  }
  tx.exec_prepared(kInsertFactsLayouts, link.param(), id.param(), uuids.param());
}

bool PgResponsesStore::updateResponse(
    const std::string& workspace_uuid, const std::string& response_uuid,
    const std::function<std::optional<Change>(StoredResponse&)>& apply) {
  pqxx::work tx(connection_);
  auto rows = tx.exec_prepared(kSelectForUpdate, workspace_uuid, response_uuid);
  if (rows.empty()) return false;
  StoredResponse stored = storedFrom(rows[0], true);
  auto change = apply(stored);
  if (!change) return true;
  if (change->events.size() > 1) {
    throw ApiError(ErrorCode::kInternalError, "A change to a response has at most one event.");
  }
  const auto& r = stored.response;
  const OutboxEvent* event = change->events.empty() ? nullptr : &change->events[0];
  const bool completed = r.submitted_at_micros() != 0;
  const std::string submitted = std::to_string(r.submitted_at_micros());
  const FactsLayout* layout = completed ? stored.facts_layout.get() : nullptr;
  const std::string facts = completed ? summaryFacts(stored.answers, layout) : std::string();
  // Committed with the facts that name it. Batches write theirs in a statement of their own
  // (kInsertFactsLayouts): no statement holds a count's row while it waits for this one.
  if (layout && !layout->written()) {
    insertFactsLayouts(tx, {{{r.link_uuid(), layout->id()}, layout}});
  }
  InsightJobArrays jobs;
  for (const auto& job : stored.insight_jobs) jobs.add(job);
  tx.exec_prepared(kSaveResponse, r.uuid(), r.status(), r.answers_json(), searchTextOf(stored),
                   sql::nullUnless(completed, submitted), event ? event->event_id.c_str() : nullptr,
                   event ? event->type.c_str() : nullptr, event ? event->payload.c_str() : nullptr,
                   countShard(), change->completes, sql::nullUnless(completed, facts),
                   jobs.answer.param(), jobs.question.param(), jobs.custom_fields.param(),
                   jobs.text.param());
  tx.commit();
  if (layout) layout->markWritten();
  return true;
}

std::optional<StoredResponse> PgResponsesStore::findResponse(const std::string& workspace_uuid,
                                                             const std::string& response_uuid) {
  pqxx::nontransaction tx(connection_);
  auto rows = tx.exec_prepared(kSelectResponse, workspace_uuid, response_uuid);
  if (rows.empty()) return std::nullopt;
  return storedFrom(rows[0]);
}

ResponsesStore::Count PgResponsesStore::countResponses(const ResponseFilter& f) {
  pqxx::nontransaction tx(connection_);
  const auto row = runQuery(tx, shapeOf(f, QueryKind::kCount), f)[0];
  return {row[0].as<int64_t>(), row[1].as<int64_t>()};
}

namespace {

ResponsesStore::Rows rowsOf(const pqxx::result& result) {
  ResponsesStore::Rows rows;
  for (const auto& row : result) {
    rows.version = row[kPageVersionColumn].as<int64_t>();
    rows.responses.push_back(std::move(storedFrom(row).response));
  }
  return rows;
}

}  // namespace

ResponsesStore::Rows PgResponsesStore::listResponses(const ResponseFilter& f, Ordering ordering,
                                                     int64_t offset, int limit) {
  pqxx::nontransaction tx(connection_);
  return rowsOf(runQuery(tx, shapeOf(f, QueryKind::kPage, ordering), f, offset, limit));
}

ResponsesStore::Rows PgResponsesStore::listAfter(const ResponseFilter& f, Ordering ordering,
                                                 const Anchor& anchor, int64_t skip, int limit) {
  pqxx::nontransaction tx(connection_);
  return rowsOf(runQuery(tx, shapeOf(f, QueryKind::kSeek, ordering), f, skip, limit, &anchor));
}

ResponsesStore::CountedPage PgResponsesStore::listCounted(const ResponseFilter& f,
                                                          Ordering ordering, int64_t offset,
                                                          int limit) {
  pqxx::nontransaction tx(connection_);
  CountedPage page;
  for (const auto& row :
       runQuery(tx, shapeOf(f, QueryKind::kCounted, ordering), f, offset, limit)) {
    page.count = row[kCountColumn].as<int64_t>();
    page.version = row[kVersionColumn].as<int64_t>();
    if (!row[0].is_null()) page.responses.push_back(std::move(storedFrom(row).response));
  }
  return page;
}

std::map<std::string, int64_t> PgResponsesStore::completedCounts(
    const std::string& workspace_uuid, const std::vector<std::string>& link_uuids) {
  PgArray links(PgArray::Element::kUuid);
  for (const auto& uuid : link_uuids) links.add(uuid);
  pqxx::nontransaction tx(connection_);
  std::map<std::string, int64_t> out;
  for (const auto& row : tx.exec_prepared(kCompletedCounts, workspace_uuid, links.param())) {
    out[row[0].as<std::string>()] = row[1].as<int64_t>();
  }
  return out;
}

int64_t PgResponsesStore::mergeSearchIndex() {
  pqxx::nontransaction tx(connection_);
  return tx.exec_prepared1(kMergeSearchIndex)[0].as<int64_t>();
}

}  // namespace feedback::responses

namespace feedback::responses {

void PgResponsesStore::forEachSummaryFacts(const std::string& workspace_uuid,
                                           const std::string& link_uuid,
                                           std::optional<int64_t> since,
                                           std::optional<int64_t> until,
                                           const std::function<void(const FactsLayouts&)>& layouts,
                                           const std::function<void(const FactsBatch&)>& each) {
  pqxx::read_transaction tx(connection_);
  tx.exec(kSummaryPlanning);
  std::string declare = kSummaryCursor + tx.quote(link_uuid) +
                        "::uuid AND workspace_uuid = " + tx.quote(workspace_uuid) + "::uuid";
  if (since)
    declare +=
        " AND submitted_at >= " FROM_MICROS_BEFORE + std::to_string(*since) + FROM_MICROS_AFTER;
  if (until)
    declare +=
        " AND submitted_at <= " FROM_MICROS_BEFORE + std::to_string(*until) + FROM_MICROS_AFTER;
  tx.exec(declare);
  FactsLayouts kept;
  for (const auto& row : tx.exec_prepared(kSummaryLayouts, link_uuid)) {
    kept.emplace_back(row[0].as<std::string>(), row[1].as<std::string>());
  }
  layouts(kept);
  // Each batch is summed up while PostgreSQL reads the next: `each` runs on another thread
  // beside the next FETCH, never beside itself. The batch's views point into its result,
  // kept until `each` has returned.
  struct Batch {
    pqxx::result rows;
    FactsBatch facts;
  };
  auto fetch = [&tx] {
    auto batch = std::make_unique<Batch>();
    batch->rows = tx.exec(kSummaryFetch);
    batch->facts.reserve(batch->rows.size());
    for (const auto& row : batch->rows) batch->facts.emplace_back(row[0].c_str(), row[0].size());
    return batch;
  };
  std::unique_ptr<Batch> next = fetch();
  std::future<void> summing;
  while (next) {
    std::unique_ptr<Batch> current = std::move(next);
    if (summing.valid()) summing.get();
    const bool last = current->rows.size() < static_cast<std::size_t>(kSummaryBatch);
    summing =
        std::async(std::launch::async, [&each, batch = std::move(current)] { each(batch->facts); });
    if (!last) next = fetch();
  }
  summing.get();
  tx.commit();
}

ResponsesStore::DayCounts PgResponsesStore::completedPerDay(const std::string& workspace_uuid,
                                                            const std::string& link_uuid,
                                                            std::optional<int64_t> since,
                                                            std::optional<int64_t> until) {
  pqxx::nontransaction tx(connection_);
  const std::string since_text = since ? std::to_string(*since) : std::string();
  const std::string until_text = until ? std::to_string(*until) : std::string();
  DayCounts out;
  for (const auto& row : tx.exec_prepared(kCompletedPerDay, workspace_uuid, link_uuid,
                                          sql::nullUnless(since.has_value(), since_text),
                                          sql::nullUnless(until.has_value(), until_text))) {
    out.emplace_back(row[0].as<std::string>(), row[1].as<int64_t>());
  }
  return out;
}

int64_t PgResponsesStore::startedCount(const std::string& workspace_uuid,
                                       const std::string& link_uuid, std::optional<int64_t> since,
                                       std::optional<int64_t> until) {
  pqxx::nontransaction tx(connection_);
  const std::string since_text = since ? std::to_string(*since) : std::string();
  const std::string until_text = until ? std::to_string(*until) : std::string();
  return tx
      .exec_prepared1(kStartedCount, workspace_uuid, link_uuid,
                      sql::nullUnless(since.has_value(), since_text),
                      sql::nullUnless(until.has_value(), until_text))[0]
      .as<int64_t>();
}

}  // namespace feedback::responses

namespace feedback::responses {

namespace {

// An export's rows: the list's statement without its page (exportSql), so that they come in
// the list's order, its values in its text (a cursor's query takes no parameters). Planned for
// its first rows (cursor_tuple_fraction's default): read along the list's index, not sorted.
constexpr const char* kExportCursor = "DECLARE export_rows NO SCROLL CURSOR FOR ";
constexpr const char* kExportFetch = "FETCH FORWARD %d FROM export_rows";

}  // namespace

void PgResponsesStore::forEachResponse(const ResponseFilter& filter, Ordering ordering, int batch,
                                       const std::function<bool(ResponseBatch&)>& each) {
  // One snapshot for the whole file, read-only.
  pqxx::read_transaction tx(connection_);
  tx.exec(kExportCursor + exportSql(tx, filter, ordering));
  char fetch[64];
  std::snprintf(fetch, sizeof fetch, kExportFetch, batch);
  for (;;) {
    const auto rows = tx.exec(fetch);
    ResponseBatch responses;
    responses.reserve(rows.size());
    for (const auto& row : rows) responses.push_back(std::move(storedFrom(row).response));
    if (!responses.empty() && !each(responses)) break;
    if (rows.size() < static_cast<std::size_t>(batch)) break;
  }
  tx.commit();
}

}  // namespace feedback::responses
