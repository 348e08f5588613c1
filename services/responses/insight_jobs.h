#pragma once
// The model-server evaluator's workers (AI_EVALUATOR=openai): each claims a queued insight
// job (responses.insight_jobs, FOR UPDATE SKIP LOCKED, leased past the model call's
// deadline), asks the model server, and fills the answer's ai_insights with the answer
// (ResponsesService::applyInsights). A failed call (timeout, an error status, an answer that is
// not insights) is tried again later, up to `max_attempts` in all; then the local evaluator
// answers instead, so that every job ends in valid insights. While the server keeps failing
// (`failures_to_rest` calls in a row), it rests for `rest` and the local evaluator answers at once,
// so that a dead server does not make every answer wait through all its attempts. Without a
// model server (AI_EVALUATOR=local after openai), the local evaluator finishes the jobs left
// (those waiting 5 s), never racing a model-server replica for a fresh one.
// A job that cannot be applied (its response unreadable) is dropped after a few more tries,
// loudly. Jobs live in PostgreSQL, so they survive restarts, and any number of replicas may
// work them.

#include <atomic>
#include <chrono>
#include <string>

#include "common/core/counters.h"
#include "common/service/job_workers.h"
#include "services/responses/evaluation/model_server.h"
#include "services/responses/responses_service.h"

namespace feedback::responses {

struct InsightJobSettings {
  std::string database_url;
  int workers = 4;  // model calls under way at once in this process
  int max_attempts = 3;
  std::chrono::milliseconds retry_delay{2000};  // doubled after each failed attempt
  std::chrono::milliseconds poll{250};          // how often an idle worker looks for jobs
  int failures_to_rest = 5;                     // failed calls in a row that rest the server
  std::chrono::milliseconds rest{30000};        // how long it rests
};

class InsightJobs {
 public:
  // `model` may be null: the fallback answers every job.
  InsightJobs(InsightJobSettings settings, ResponsesService& service,
              const evaluation::ModelServer* model, const evaluation::Evaluator& fallback,
              std::chrono::milliseconds model_timeout, Counters& counters);

 private:
  struct Job;
  // False when there was no job to do.
  bool runOne(pqxx::connection& connection);
  // The circuit breaker around the model server.
  bool modelResting() const;
  void modelAnswered(bool ok);

  const InsightJobSettings settings_;
  ResponsesService& service_;
  const evaluation::ModelServer* model_;
  const evaluation::Evaluator& fallback_;
  const std::chrono::milliseconds lease_;
  Counters& counters_;
  std::atomic<int> failures_in_a_row_{0};
  std::atomic<int64_t> resting_until_ms_{0};  // steady clock
  // Last: its threads stop before what they use goes.
  service::JobWorkers workers_;
};

}  // namespace feedback::responses
