#include "services/responses/erasure/retention_task.h"

#include <pqxx/pqxx>
#include <vector>

#include "common/core/log.h"
#include "common/core/time.h"
#include "common/pg/connect.h"
#include "services/responses/erasure/pg_erasure_store.h"

namespace feedback::responses {
namespace {

std::string ageSeries(const std::string& workspace_uuid) {
  return "responses_oldest_retained_age_seconds{workspace_uuid=\"" + workspace_uuid + "\"}";
}

}  // namespace

RetentionTask::RetentionTask(std::string database_url, ResponseErasure& erasure, Counters& counters,
                             std::chrono::milliseconds interval)
    : database_url_(std::move(database_url)),
      erasure_(erasure),
      counters_(counters),
      task_(interval, [this] {
        try {
          run();
        } catch (const std::exception& e) {
          log::warn("retention_failed", {{"error", e.what()}});
        }
      }) {}

int64_t RetentionTask::run() {
  auto connection = pg::connect(database_url_);
  PgErasureStore::prepareRetention(*connection);
  PgErasureStore store(*connection);
  int64_t erased = 0;
  std::map<std::string, double> ages;
  for (const auto& retention : store.retentions()) {
    if (task_.stopping()) return erased;
    try {
      const int64_t done = erasure_.eraseExpired(store, retention, nowMicros(),
                                                 [this] { return !task_.stopping(); });
      if (done > 0) {
        log::info("retention_erased", {{"workspace_uuid", retention.workspace_uuid},
                                       {"erased", static_cast<long long>(done)}});
      }
      erased += done;
      const auto oldest = store.oldestResponseMicros(retention.workspace_uuid);
      ages[retention.workspace_uuid] =
          oldest ? static_cast<double>(nowMicros() - *oldest) / 1e6 : 0;
    } catch (const pqxx::broken_connection&) {
      throw;
    } catch (const std::exception& e) {
      // One workspace's failure (a deadlock lost three times, say) leaves the others' erasures
      // to run; it is tried again at the next run.
      log::warn("retention_failed",
                {{"workspace_uuid", retention.workspace_uuid}, {"error", e.what()}});
    }
  }
  publishAges(ages);
  return erased;
}

void RetentionTask::publishAges(const std::map<std::string, double>& ages) {
  std::vector<std::string> gone;
  std::vector<std::string> fresh;
  {
    std::lock_guard lock(mutex_);
    for (const auto& entry : ages_) {
      if (!ages.count(entry.first)) gone.push_back(entry.first);
    }
    for (const auto& entry : ages) {
      if (!ages_.count(entry.first)) fresh.push_back(entry.first);
    }
    ages_ = ages;
  }
  // Outside mutex_: rendering the metrics holds the counters' lock while it reads the gauges,
  // which take mutex_.
  for (const auto& workspace : gone) counters_.removeGauge(ageSeries(workspace));
  for (const auto& workspace : fresh) {
    counters_.gauge(ageSeries(workspace), [this, workspace] {
      std::lock_guard lock(mutex_);
      auto it = ages_.find(workspace);
      return it == ages_.end() ? 0.0 : it->second;
    });
  }
}

}  // namespace feedback::responses
