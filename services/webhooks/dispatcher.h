#pragma once
// Delivers events to webhooks (docs/api.md "Events and webhooks"). Three threads:
// - the claim loop: woken by LISTEN/NOTIFY (or a due retry, or, as a fallback, every second),
//   it moves outbox events into sends (fan-out) and claims due sends, leaving room for every
//   webhook;
// - the I/O thread: signs each send (Standard Webhooks) and POSTs it over HTTPS;
// - the recorder (attempt_recorder.h): records attempts and schedules retries.
// State lives in PostgreSQL only, so any number of dispatchers may run side by side.

#include <sys/eventfd.h>

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>

#include "common/api/media_urls.h"
#include "common/core/counters.h"
#include "common/core/secret_box.h"
#include "common/net/http_client.h"
#include "services/webhooks/attempt_recorder.h"
#include "services/webhooks/fan_out_meter.h"
#include "services/webhooks/in_flight.h"
#include "services/webhooks/retry_schedule.h"

namespace feedback::webhooks {

struct DispatcherSettings {
  std::string database_url;
  double retry_scale = 1.0;
  // Sends in flight at once at this dispatcher, and to one webhook.
  int max_in_flight = 256;
  int per_webhook = 16;
  // Outbox events taken per fan-out statement.
  int fan_out_batch = 500;
  // How long the claim loop sleeps when nothing wakes it.
  Millis poll_interval{1000};
  net::HttpClientSettings http;
};

class Dispatcher {
 public:
  Dispatcher(DispatcherSettings settings, const SecretBox& secrets,
             const api::MediaUrls& media_urls, Counters& counters);
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  void start();
  // Stops claiming, lets sends in flight finish (at most the HTTP timeout) and records them.
  void stop();
  // False while the claim loop cannot reach PostgreSQL.
  bool healthy() const { return healthy_; }

 private:
  void claimLoop();
  struct Round {
    Millis sleep{0};    // how long to sleep unless woken
    bool more = false;  // the outbox still holds events to fan out: go on at once
  };
  // One round: fan-out (when events may have come: a notification, or the fallback poll),
  // then claims.
  Round round(PgDispatchStore& store, bool fan_out);
  // Fans out until the outbox is caught up or a slice of time has passed; true when caught up.
  bool fanOut(PgDispatchStore& store);
  // Claims due sends when some may be due and there is room, and says how long to sleep.
  void claimDue(PgDispatchStore& store, Round& done);
  // Times one statement into webhook_statement_duration_seconds{statement}.
  template <typename F>
  auto timed(const char* statement, F&& run);
  // False when the time ran out with nothing to wake the loop.
  bool wait(int pg_socket, Millis timeout);
  // True when wake() was called since the last call.
  bool takeWakes();
  void wake();
  // On the I/O thread: sends now, or once one of its webhook's sends under way ends.
  void admit(Send send);
  // Drops the claimed sends with these pending ids that still wait in a lane: their response
  // was erased (webhooks.erase_response_events notified them). Sends already under way go on.
  void dropErased(std::vector<int64_t> pending_ids);
  void send(Send send);
  void finish(Send send, net::HttpResult result);

  DispatcherSettings settings_;
  const SecretBox& secrets_;
  const api::MediaUrls& media_urls_;
  Counters& counters_;
  RetrySchedule schedule_;
  FanOutMeter fan_out_meter_;
  // Sends claimed and not yet finished, per webhook: what claims leave room for.
  InFlight in_flight_;
  // Per webhook, on the I/O thread only: sends under way (at most per_webhook) and those
  // claimed that wait for one of them to end.
  struct Lane {
    int sending = 0;
    std::deque<Send> waiting;
  };
  std::unordered_map<std::string, Lane> lanes_;
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::unique_ptr<net::HttpClient> client_;
  std::unique_ptr<AttemptRecorder> recorder_;
  int wake_fd_ = -1;
  std::atomic<bool> running_{false};
  std::atomic<bool> healthy_{true};
  // The outbox's lag as last read (webhook_outbox_lag_seconds), and when it was read.
  std::atomic<double> outbox_lag_{0};
  std::chrono::steady_clock::time_point lag_read_at_{};
  // The last fan-out failed: logged once when it starts, once when it ends (claim thread).
  bool fan_out_failing_ = false;
  // Claim thread: whether sends may have come due since the last claim, which found none
  // due before claim_quiet_until_. Set by a fan-out that queued sends (here or, through a
  // notification on kPendingChannel, at another dispatcher), by sends the API queued (the
  // same notification), by a wake (a send ended: room, or a retry scheduled) and on
  // (re)connecting. Sends of another dispatcher's retries or expired leases are claimed by
  // the time claim_quiet_until_ passes, at most the poll interval later.
  bool claim_wanted_ = true;
  std::chrono::steady_clock::time_point claim_quiet_until_{};
  // Claim thread: when the last fan-out began (kFanOutGap).
  std::chrono::steady_clock::time_point fanned_out_at_{};
  std::thread claim_thread_;
  std::thread io_thread_;
};

}  // namespace feedback::webhooks
