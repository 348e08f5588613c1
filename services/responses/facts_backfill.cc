#include "services/responses/facts_backfill.h"

#include <pqxx/pqxx>

#include "common/core/log.h"
#include "common/pg/connect.h"
#include "common/pg/pg_array.h"
#include "services/responses/response_columns.h"
#include "services/responses/stored_answers.h"
#include "services/responses/summary_facts.h"

namespace feedback::responses {
namespace {

constexpr int kBatch = 1000;
constexpr std::chrono::seconds kRetry{10};
// pg_try_advisory_lock's key: one backfill at a time across replicas.
constexpr int64_t kLockKey = 0x72657370666163;  // "respfac"

constexpr const char* kIsDone =
    "SELECT done FROM responses.backfills WHERE name = 'response_facts'";
constexpr const char* kLock = "SELECT pg_try_advisory_lock($1)";
constexpr const char* kUnlock = "SELECT pg_advisory_unlock($1)";
constexpr const char* kNextBatch =
    "SELECT uuid::text, workspace_uuid::text, link_uuid::text, " MICROS("submitted_at")
    ", answers FROM responses.responses WHERE status = 'completed' AND uuid > $1::uuid"
    " ORDER BY uuid LIMIT $2";
constexpr const char* kInsertFacts =
    "INSERT INTO responses.response_facts (response_uuid, workspace_uuid, link_uuid,"
    "  submitted_at, facts)"
    " SELECT r, w, l, " FROM_MICROS("s") ", f FROM unnest($1::uuid[], $2::uuid[], $3::uuid[],"
    "  $4::bigint[], $5::text[]) AS g (r, w, l, s, f)"
    " ON CONFLICT (response_uuid) DO NOTHING";
constexpr const char* kMarkDone =
    "UPDATE responses.backfills SET done = true WHERE name = 'response_facts'";

}  // namespace

FactsBackfill::FactsBackfill(std::string database_url, Counters& counters)
    : database_url_(std::move(database_url)),
      counters_(counters),
      task_(
          kRetry, [this] { tryOnce(); }, service::PeriodicTask::Start::kAtOnce) {}

void FactsBackfill::tryOnce() {
  if (done_) return;
  try {
    done_ = attempt();
  } catch (const std::exception& e) {
    log::warn("response_facts_backfill_failed", {{"error", e.what()}});
  }
}

bool FactsBackfill::attempt() {
  auto connection = pg::connect(database_url_);
  auto& c = *connection;
  {
    pqxx::nontransaction tx(c);
    if (tx.exec1(kIsDone)[0].as<bool>()) return true;
    if (!tx.exec_params1(kLock, kLockKey)[0].as<bool>()) return false;  // another replica
  }
  log::info("response_facts_backfill_started", {});
  std::string after = "00000000-0000-0000-0000-000000000000";
  int64_t total = 0;
  while (true) {
    // The advisory lock goes with the connection; the next start goes on from the beginning.
    if (task_.stopping()) return true;
    pqxx::work tx(c);
    auto rows = tx.exec_params(kNextBatch, after, kBatch);
    using E = PgArray::Element;
    PgArray response(E::kUuid), workspace(E::kUuid), link(E::kUuid), submitted(E::kBigint),
        facts(E::kText);
    for (const auto& row : rows) {
      response.add(row[0].c_str());
      workspace.add(row[1].c_str());
      link.add(row[2].c_str());
      submitted.add(row[3].as<int64_t>());
      facts.add(summaryFacts(parseAnswers(std::string_view(row[4].c_str(), row[4].size()))));
    }
    if (!rows.empty()) {
      tx.exec_params(kInsertFacts, response.param(), workspace.param(), link.param(),
                     submitted.param(), facts.param());
      after = rows.back()[0].c_str();
    }
    if (rows.size() < static_cast<std::size_t>(kBatch)) tx.exec(kMarkDone);
    tx.commit();
    total += static_cast<int64_t>(rows.size());
    counters_.increment("response_facts_backfilled_total", rows.size());
    if (rows.size() < static_cast<std::size_t>(kBatch)) break;
  }
  pqxx::nontransaction(c).exec_params(kUnlock, kLockKey);
  log::info("response_facts_backfill_done", {{"responses", std::to_string(total)}});
  return true;
}

}  // namespace feedback::responses
