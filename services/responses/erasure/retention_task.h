#pragma once
// Retention (docs/api.md "Erasure and retention"): every RETENTION_INTERVAL_MS, the responses
// of each workspace with a retention that are older than it are erased through
// ResponseErasure, a batch at a time. Any number of replicas may run it at once: each batch
// locks its rows with SKIP LOCKED, so each response is erased once. After each run the age of
// each such workspace's oldest response is a gauge,
// responses_oldest_retained_age_seconds{workspace_uuid}.

#include <chrono>
#include <map>
#include <mutex>
#include <string>

#include "common/core/counters.h"
#include "common/service/periodic_task.h"
#include "services/responses/erasure/response_erasure.h"

namespace feedback::responses {

class RetentionTask {
 public:
  RetentionTask(std::string database_url, ResponseErasure& erasure, Counters& counters,
                std::chrono::milliseconds interval);

  // One run over every workspace with a retention; how many responses it erased. Throws on a
  // database failure.
  int64_t run();

 private:
  // The workspaces' gauges: a new one for each workspace found, gone with its retention.
  void publishAges(const std::map<std::string, double>& ages);

  const std::string database_url_;
  ResponseErasure& erasure_;
  Counters& counters_;
  std::mutex mutex_;
  std::map<std::string, double> ages_;  // seconds, by workspace uuid
  service::PeriodicTask task_;          // last: it runs once the rest is made
};

}  // namespace feedback::responses
