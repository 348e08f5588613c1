#pragma once
// The model-server evaluator's workers (AI_EVALUATOR=openai): each claims a queued insight
// job (responses.insight_jobs, FOR UPDATE SKIP LOCKED, leased past the model call's
// deadline), asks the model server, and fills the answer's ai_insights with the answer
// (ResponsesService::applyInsights). A failed call (timeout, an error status, an answer that is
// not insights) is tried again later, up to `max_attempts` in all; then the local evaluator
// answers instead, so that every job ends in valid insights. Jobs live in PostgreSQL, so they
// survive restarts, and any number of replicas may work them.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/core/counters.h"
#include "services/responses/evaluation/model_server.h"
#include "services/responses/responses_service.h"

namespace feedback::responses {

struct InsightJobSettings {
  std::string database_url;
  int workers = 4;  // model calls under way at once in this process
  int max_attempts = 3;
  std::chrono::milliseconds retry_delay{2000};  // doubled after each failed attempt
  std::chrono::milliseconds poll{250};          // how often an idle worker looks for jobs
};

class InsightJobs {
 public:
  InsightJobs(InsightJobSettings settings, ResponsesService& service,
              const evaluation::ModelServer& model, const evaluation::Evaluator& fallback,
              std::chrono::milliseconds model_timeout, Counters& counters);
  ~InsightJobs();
  InsightJobs(const InsightJobs&) = delete;
  InsightJobs& operator=(const InsightJobs&) = delete;

 private:
  struct Job;
  void work();
  // False when there was no job to do.
  bool runOne(pqxx::connection& connection);
  bool sleep(std::chrono::milliseconds how_long);

  const InsightJobSettings settings_;
  ResponsesService& service_;
  const evaluation::ModelServer& model_;
  const evaluation::Evaluator& fallback_;
  const std::chrono::milliseconds lease_;
  Counters& counters_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace feedback::responses
