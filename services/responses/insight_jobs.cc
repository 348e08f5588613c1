#include "services/responses/insight_jobs.h"

#include <boost/json/parse.hpp>
#include <pqxx/pqxx>

#include "common/core/log.h"
#include "services/responses/pg_responses_store.h"

namespace feedback::responses {
namespace {

// Failed applications (not model calls) a job gets beyond its model attempts.
constexpr int kApplyAttempts = 3;

// How long a job waits before a replica without a model server takes it (the jobs a model
// server's replicas left, or could not keep up with).
constexpr int64_t kLeftJobWaitMs = 5000;

int64_t steadyMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The next job due for `$2` ms, leased: it comes due again should this worker die with it.
constexpr const char* kClaim = "insight_jobs_claim";
constexpr const char* kClaimSql =
    "UPDATE responses.insight_jobs SET attempts = attempts + 1,"
    "  due_at = clock_timestamp() + $1 * interval '1 millisecond'"
    " WHERE id = (SELECT id FROM responses.insight_jobs"
    "   WHERE due_at <= clock_timestamp() - $2 * interval '1 millisecond'"
    "   ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)"
    " RETURNING id, workspace_uuid::text, response_uuid::text, answer_uuid::text, question,"
    "   custom_fields, text, attempts";

constexpr const char* kRetryLater = "insight_jobs_retry_later";
constexpr const char* kRetryLaterSql =
    "UPDATE responses.insight_jobs SET due_at = clock_timestamp() + $2 * interval '1 millisecond'"
    " WHERE id = $1";

constexpr const char* kFinish = "insight_jobs_finish";
constexpr const char* kFinishSql = "DELETE FROM responses.insight_jobs WHERE id = $1";

void prepare(pqxx::connection& c) {
  PgResponsesStore::prepare(c);
  c.prepare(kClaim, kClaimSql);
  c.prepare(kRetryLater, kRetryLaterSql);
  c.prepare(kFinish, kFinishSql);
}

questions::EvaluatorConfig configOf(const std::string& custom_fields_json) {
  questions::EvaluatorConfig config;
  boost::system::error_code ec;
  auto names = boost::json::parse(custom_fields_json, ec);
  if (!ec && names.is_array()) {
    for (const auto& n : names.get_array()) {
      if (n.is_string()) config.custom_fields.emplace_back(n.get_string());
    }
  }
  return config;
}

}  // namespace

InsightJobs::InsightJobs(InsightJobSettings settings, ResponsesService& service,
                         const evaluation::ModelServer* model,
                         const evaluation::Evaluator& fallback,
                         std::chrono::milliseconds model_timeout, Counters& counters)
    : settings_(std::move(settings)),
      service_(service),
      model_(model),
      fallback_(fallback),
      // A claimed job waits for at most one model call (and its margin) before it is settled.
      lease_(model_timeout * 2 + std::chrono::seconds(10)),
      counters_(counters),
      workers_(
          {"insight_jobs", settings_.database_url, settings_.workers, settings_.poll, &prepare},
          [this](pqxx::connection& c) { return runOne(c); }) {}

bool InsightJobs::modelResting() const {
  return steadyMillis() < resting_until_ms_.load();
}

void InsightJobs::modelAnswered(bool ok) {
  if (ok) {
    failures_in_a_row_ = 0;
    return;
  }
  if (++failures_in_a_row_ % settings_.failures_to_rest != 0) return;
  resting_until_ms_ = steadyMillis() + settings_.rest.count();
  log::warn("insight_model_resting", {{"ms", std::to_string(settings_.rest.count())}});
  counters_.increment("insight_model_rests_total");
}

bool InsightJobs::runOne(pqxx::connection& connection) {
  pqxx::result claimed;
  {
    pqxx::nontransaction tx(connection);
    // Without a model server, only jobs left waiting: a fresh one is a model-server replica's
    // to take, and the local evaluator would answer it in the model's stead.
    const int64_t waited_ms = model_ ? 0 : kLeftJobWaitMs;
    claimed = tx.exec_prepared(kClaim, static_cast<int64_t>(lease_.count()), waited_ms);
  }
  if (claimed.empty()) return false;
  const auto& row = claimed[0];
  const int64_t id = row[0].as<int64_t>();
  const std::string workspace = row[1].as<std::string>(), response = row[2].as<std::string>(),
                    answer = row[3].as<std::string>(), question = row[4].as<std::string>(),
                    text = row[6].as<std::string>();
  const int attempts = row[7].as<int>();
  const auto config = configOf(row[5].as<std::string>());
  const evaluation::EvaluationInput input{question, text, config};
  if (attempts > settings_.max_attempts + kApplyAttempts) {
    log::error("insight_job_dropped", {{"response_uuid", response}, {"answer_uuid", answer}});
    counters_.increment("insight_jobs_total{outcome=\"dropped\"}");
    pqxx::nontransaction(connection).exec_prepared(kFinish, id);
    return true;
  }

  evaluation::ModelServer::Outcome outcome;
  const bool ask_model = model_ && attempts <= settings_.max_attempts && !modelResting();
  if (ask_model) {
    outcome = model_->insights(input);
    modelAnswered(outcome.insights.has_value());
  }
  const char* source = "model";
  if (!outcome.insights) {
    if (ask_model) {
      log::warn("insight_model_call_failed", {{"response_uuid", response},
                                              {"attempt", std::to_string(attempts)},
                                              {"error", outcome.error}});
    }
    if (ask_model && attempts < settings_.max_attempts) {
      counters_.increment("insight_jobs_total{outcome=\"retry\"}");
      const auto delay = settings_.retry_delay * (1 << std::min(attempts - 1, 10));
      pqxx::nontransaction(connection)
          .exec_prepared(kRetryLater, id, static_cast<int64_t>(delay.count()));
      return true;
    }
    outcome.insights = fallback_.insights(input);
    source = "fallback";
  }
  PgResponsesStore store(connection);
  const bool applied = service_.applyInsights(store, workspace, response, answer, text,
                                              evaluation::insightsJson(*outcome.insights));
  pqxx::nontransaction(connection).exec_prepared(kFinish, id);
  counters_.increment(std::string("insight_jobs_total{outcome=\"") + (applied ? source : "stale") +
                      "\"}");
  return true;
}

}  // namespace feedback::responses
