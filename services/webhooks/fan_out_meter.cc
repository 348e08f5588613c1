#include "services/webhooks/fan_out_meter.h"

#include "common/core/log.h"

namespace feedback::webhooks {
namespace {

constexpr auto kProgressEvery = std::chrono::seconds(5);
// A backlog gone sooner is not worth a line: at load, whole batches come and go all the time.
constexpr auto kReportedDrain = std::chrono::seconds(1);

double secondsOf(FanOutMeter::Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

}  // namespace

void FanOutMeter::add(const PgDispatchStore::FannedOut& batch, bool whole_batch,
                      double lag_seconds) {
  counters_.increment("webhook_fan_out_events_total", static_cast<uint64_t>(batch.events));
  counters_.increment("webhook_fan_out_sends_total", static_cast<uint64_t>(batch.sends));
  const auto now = Clock::now();
  if (!draining_) {
    if (!whole_batch) return;
    draining_ = true;
    started_ = logged_ = now;
    events_ = sends_ = 0;
  }
  events_ += batch.events;
  sends_ += batch.sends;
  const double seconds = secondsOf(now - started_);
  const double rate = seconds > 0 ? static_cast<double>(events_) / seconds : 0.0;
  if (!whole_batch) {
    draining_ = false;
    if (now - started_ >= kReportedDrain) {
      log::info("webhook_outbox_drained", {{"events", static_cast<long long>(events_)},
                                           {"sends", static_cast<long long>(sends_)},
                                           {"seconds", seconds},
                                           {"events_per_second", rate}});
    }
  } else if (now - logged_ >= kProgressEvery) {
    logged_ = now;
    log::info("webhook_outbox_draining", {{"events", static_cast<long long>(events_)},
                                          {"sends", static_cast<long long>(sends_)},
                                          {"events_per_second", rate},
                                          {"outbox_lag_seconds", lag_seconds}});
  }
}

}  // namespace feedback::webhooks
