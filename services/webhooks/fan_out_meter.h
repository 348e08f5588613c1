#pragma once
// What the dispatcher's fan-out does, for operators: the events and sends it moves
// (webhook_fan_out_events_total, webhook_fan_out_sends_total; their rate is the fan-out rate)
// and, while a backlog drains, its progress in the log: a line every few seconds (events so
// far, events per second, the oldest event's age) and one when it is gone.

#include <chrono>
#include <cstdint>

#include "common/core/counters.h"
#include "services/webhooks/pg_dispatch_store.h"

namespace feedback::webhooks {

class FanOutMeter {
 public:
  using Clock = std::chrono::steady_clock;
  explicit FanOutMeter(Counters& counters) : counters_(counters) {}

  // One fan-out statement: what it moved, whether it took a whole batch (so more waits),
  // and the outbox's lag as last read.
  void add(const PgDispatchStore::FannedOut& batch, bool whole_batch, double lag_seconds);

 private:
  Counters& counters_;
  // The backlog being drained: since a statement first took a whole batch.
  bool draining_ = false;
  Clock::time_point started_{};
  Clock::time_point logged_{};
  int64_t events_ = 0;
  int64_t sends_ = 0;
};

}  // namespace feedback::webhooks
