#include "services/webhooks/dispatcher.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <charconv>
#include <pqxx/pqxx>
#include <unordered_set>

#include "common/core/ids.h"
#include "common/core/log.h"
#include "common/core/time.h"
#include "common/pg/connect.h"
#include "common/webhooks/webhook_rules.h"
#include "services/webhooks/dispatch_channel.h"

namespace feedback::webhooks {
namespace {

constexpr auto kReconnectDelay = Millis(500);
// How long a round fans out before it claims: while a backlog drains, the sends of events
// already fanned out keep going.
constexpr auto kFanOutSlice = Millis(100);
constexpr auto kBusyNap = Millis(50);
// Fan-outs that notifications ask for begin at least this far apart: at load the outbox
// notifies at every writer batch, hundreds of times a second, and a fan-out statement's
// planning (about half a millisecond, plan_cache_mode force_custom_plan) then cost more than
// its rows. Waiting this long at most lets a round take the events of several batches; a
// notification after a quiet spell is fanned out at once. At 10 ms, planning was still half
// the dispatcher's backend's CPU under "W4, 32 types" (88 fan-outs a second); W6's delivery
// p50 (22 ms, target 50) has room for 25.
constexpr auto kFanOutGap = Millis(25);
// Beyond its sends' time, what a claim's lease allows for its attempt to be recorded.
constexpr auto kRecordMargin = Millis(5000);

// LISTEN on a channel; a notification sets `heard`, its payload is not needed. Those sent by
// the backend `own_pid` (this dispatcher's own statements, which it acts on already) are not
// heard.
class Wakeup final : public pqxx::notification_receiver {
 public:
  Wakeup(pqxx::connection_base& connection, std::string_view channel, bool& heard, int own_pid = 0)
      : pqxx::notification_receiver(connection, std::string(channel)),
        heard_(heard),
        own_pid_(own_pid) {}
  void operator()(const std::string&, int backend_pid) override {
    if (backend_pid != own_pid_) heard_ = true;
  }

 private:
  bool& heard_;
  int own_pid_;
};

// LISTEN on kErasedChannel: the pending ids each notification lists are added to `ids`.
class ErasedSends final : public pqxx::notification_receiver {
 public:
  ErasedSends(pqxx::connection_base& connection, std::vector<int64_t>& ids)
      : pqxx::notification_receiver(connection, kErasedChannel), ids_(ids) {}
  void operator()(const std::string& payload, int) override {
    std::size_t start = 0;
    while (start < payload.size()) {
      std::size_t comma = payload.find(',', start);
      if (comma == std::string::npos) comma = payload.size();
      int64_t id = 0;
      auto [end, ec] = std::from_chars(payload.data() + start, payload.data() + comma, id);
      if (ec == std::errc() && end == payload.data() + comma) ids_.push_back(id);
      start = comma + 1;
    }
  }

 private:
  std::vector<int64_t>& ids_;
};

}  // namespace

Dispatcher::Dispatcher(DispatcherSettings settings, const SecretBox& secrets,
                       const api::MediaUrls& media_urls, Counters& counters)
    : settings_(std::move(settings)),
      secrets_(secrets),
      media_urls_(media_urls),
      counters_(counters),
      schedule_(settings_.retry_scale),
      fan_out_meter_(counters),
      work_(io_.get_executor()),
      wake_fd_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  client_ = std::make_unique<net::HttpClient>(io_.get_executor(), settings_.http);
  counters_.gauge("webhook_sends_in_flight", [this] { return double(in_flight_.total()); });
  counters_.gauge("webhook_dispatcher_healthy", [this] { return healthy_ ? 1.0 : 0.0; });
  counters_.gauge("webhook_outbox_lag_seconds", [this] { return outbox_lag_.load(); });
}

Dispatcher::~Dispatcher() {
  stop();
  if (wake_fd_ >= 0) close(wake_fd_);
}

void Dispatcher::start() {
  running_ = true;
  recorder_ = std::make_unique<AttemptRecorder>(settings_.database_url, [this] { wake(); });
  io_thread_ = std::thread([this] { io_.run(); });
  claim_thread_ = std::thread([this] { claimLoop(); });
}

void Dispatcher::stop() {
  if (!running_.exchange(false)) return;
  wake();
  if (claim_thread_.joinable()) claim_thread_.join();
  // Sends in flight end within the HTTP timeout; then their attempts are recorded.
  auto deadline = std::chrono::steady_clock::now() + settings_.http.timeout + Millis(1000);
  while (in_flight_.total() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(Millis(20));
  }
  work_.reset();
  io_.stop();
  if (io_thread_.joinable()) io_thread_.join();
  if (recorder_) recorder_->stop();
}

void Dispatcher::wake() {
  uint64_t one = 1;
  if (write(wake_fd_, &one, sizeof one) < 0) {
    // The counter is full only if nobody has read it for 2^64 wakes: the loop is awake anyway.
  }
}

bool Dispatcher::wait(int pg_socket, Millis timeout) {
  // A negative pg_socket is not polled (poll(2)): only a wake ends the wait early.
  pollfd fds[2] = {{pg_socket, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
  int ready = poll(fds, 2, static_cast<int>(timeout.count()));
  return ready > 0;
}

bool Dispatcher::takeWakes() {
  uint64_t count = 0;
  // Non-blocking: nothing to read means no wake since the last look.
  return read(wake_fd_, &count, sizeof count) == static_cast<ssize_t>(sizeof count) && count > 0;
}

void Dispatcher::claimLoop() {
  // Notifications come on a connection of their own that never opens a transaction: one
  // that arrives on a connection while a transaction runs there can be read off the socket
  // and never reported (seen as 1 s stalls, the fallback poll, before this split).
  // A finished send wakes the loop to claim, not to look at the outbox: fan-out runs when a
  // notification came, after a reconnection, and on the fallback poll.
  bool fan_out = true;
  bool backlog = false;  // the last round left events in the outbox: go on at once
  std::unique_ptr<pqxx::connection> listener;
  std::vector<std::unique_ptr<pqxx::notification_receiver>> listening;
  std::vector<int64_t> erased;  // pending ids an erasure cancelled, heard since the last look
  std::unique_ptr<pqxx::connection> connection;
  while (running_) {
    try {
      if (!connection) {
        connection = pg::connect(settings_.database_url);
        PgDispatchStore::prepareDispatcher(*connection);
        listener = pg::connect(settings_.database_url);
        listening.push_back(std::make_unique<Wakeup>(*listener, kOutboxChannel, fan_out));
        // Sends this dispatcher's fan-out queued are claimed in the same round.
        listening.push_back(std::make_unique<Wakeup>(*listener, kPendingChannel, claim_wanted_,
                                                     connection->backendpid()));
        listening.push_back(std::make_unique<ErasedSends>(*listener, erased));
        fan_out = true;
        claim_wanted_ = true;
      }
      listener->get_notifs();
      if (!erased.empty()) dropErased(std::exchange(erased, {}));
      if (takeWakes()) claim_wanted_ = true;
      if (fan_out && !backlog && !claim_wanted_) {
        // Only a wake (a claim to make) ends this wait early; notifications only add events.
        const auto now = std::chrono::steady_clock::now();
        if (const auto gap_ends = fanned_out_at_ + kFanOutGap; now < gap_ends) {
          if (wait(-1, std::chrono::ceil<Millis>(gap_ends - now)) && takeWakes()) {
            claim_wanted_ = true;
          }
        }
      }
      PgDispatchStore store(*connection);
      Round done = round(store, fan_out);
      if (!healthy_) log::info("webhook_dispatcher_connected");
      healthy_ = true;
      fan_out = backlog = done.more;
      listener->get_notifs();
      if (!fan_out && !claim_wanted_ && done.sleep.count() > 0 && running_) {
        // The fallback poll: a round as if events had come.
        if (!wait(listener->sock(), done.sleep)) fan_out = claim_wanted_ = true;
      }
    } catch (const std::exception& e) {
      listening.clear();
      listener.reset();
      connection.reset();
      if (healthy_) log::warn("webhook_dispatcher_disconnected", {{"error", e.what()}});
      healthy_ = false;
      std::this_thread::sleep_for(kReconnectDelay);
    }
  }
}

template <typename F>
auto Dispatcher::timed(const char* statement, F&& run) {
  const auto started = std::chrono::steady_clock::now();
  auto result = run();
  counters_.observe(
      "webhook_statement_duration_seconds", std::string("statement=\"") + statement + "\"",
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return result;
}

bool Dispatcher::fanOut(PgDispatchStore& store) {
  const auto until = std::chrono::steady_clock::now() + kFanOutSlice;
  const int batch = settings_.fan_out_batch;
  while (running_) {
    auto moved = timed("fan_out", [&] { return store.fanOut(batch); });
    if (moved.sends > 0) claim_wanted_ = true;
    const bool whole = moved.rows == batch;
    fan_out_meter_.add(moved, whole, outbox_lag_.load());
    if (!whole) return true;
    if (std::chrono::steady_clock::now() >= until) return false;
  }
  return false;
}

Dispatcher::Round Dispatcher::round(PgDispatchStore& store, bool fan_out) {
  counters_.increment("webhook_claim_rounds_total");
  // The backlog as this round finds it; once a second at most: at load, rounds come far more
  // often than a scrape.
  if (auto now = std::chrono::steady_clock::now(); now - lag_read_at_ >= std::chrono::seconds(1)) {
    outbox_lag_ = store.outboxLag();
    lag_read_at_ = now;
  }
  Round done;
  try {
    if (fan_out) {
      fanned_out_at_ = std::chrono::steady_clock::now();
      done.more = !fanOut(store);
      if (fan_out_failing_) log::info("webhook_fan_out_working_again");
      fan_out_failing_ = false;
    }
  } catch (const pqxx::broken_connection&) {
    throw;
  } catch (const pqxx::sql_error& e) {
    // A fan-out that fails (a row it cannot take) must not stop the sends already queued:
    // they are claimed below. It is tried again at the next wake; the events behind it wait,
    // shown by the warning, the counter and the outbox's growing lag.
    counters_.increment("webhook_fan_out_failures_total");
    if (!fan_out_failing_) log::warn("webhook_fan_out_failing", {{"error", e.what()}});
    fan_out_failing_ = true;
  }
  claimDue(store, done);
  return done;
}

void Dispatcher::claimDue(PgDispatchStore& store, Round& done) {
  const int room = settings_.max_in_flight - in_flight_.total();
  if (room <= 0) {
    // Nothing can be claimed until a send ends, and its end wakes the loop to claim: till
    // then a wish to claim would only keep the loop from sleeping.
    claim_wanted_ = false;
    done.sleep = settings_.poll_interval;
    return;
  }
  // Most outbox events want no webhook: a round claims only when sends may be due (see
  // claim_wanted_), not at every notification, which at load came hundreds of times a second
  // with two statements each that found nothing.
  const auto now = std::chrono::steady_clock::now();
  if (!claim_wanted_ && now < claim_quiet_until_) {
    done.sleep = std::chrono::ceil<Millis>(claim_quiet_until_ - now);
    return;
  }
  // Until this claim finds nothing due, every round claims; a wake or a notification while
  // it runs sets claim_wanted_ again.
  claim_wanted_ = false;
  claim_quiet_until_ = now;
  // Each webhook may have as many claimed sends waiting as under way: when one ends the next
  // starts at once, without a round (at load, a round's statements take longer than a send).
  // A waiting send starts within one timeout and ends within the next; the lease also covers
  // the time its attempt takes to be recorded, so that it is not claimed again meanwhile.
  const Millis lease = settings_.http.timeout * 3 + kRecordMargin;
  const int per_webhook = 2 * settings_.per_webhook;
  auto busy = in_flight_.busy();
  auto sends = timed("claim", [&] { return store.claim(room, per_webhook, busy, lease); });
  const bool filled = static_cast<int>(sends.size()) == room;
  for (auto& s : sends) {
    in_flight_.add(s.webhook_uuid);
    boost::asio::post(io_, [this, s = std::move(s)]() mutable { admit(std::move(s)); });
  }
  if (filled || done.more) return;
  // While sends are under way each one's end wakes the loop; a short nap bounds the wait of
  // a retry that comes due meanwhile (behind a hung receiver's sends, say) without asking
  // PostgreSQL when, which at full load would double the loop's statements.
  if (!sends.empty()) {
    done.sleep = kBusyNap;
    return;
  }
  auto next = store.nextDue(per_webhook, busy);
  done.sleep =
      next ? std::clamp(*next, Millis(1), settings_.poll_interval) : settings_.poll_interval;
  claim_quiet_until_ = now + done.sleep;
}

void Dispatcher::admit(Send s) {
  Lane& lane = lanes_[s.webhook_uuid];
  if (lane.sending < settings_.per_webhook) {
    ++lane.sending;
    send(std::move(s));
  } else {
    lane.waiting.push_back(std::move(s));
  }
}

void Dispatcher::dropErased(std::vector<int64_t> pending_ids) {
  boost::asio::post(io_, [this, ids = std::move(pending_ids)] {
    const std::unordered_set<int64_t> erased(ids.begin(), ids.end());
    for (auto& [webhook_uuid, lane] : lanes_) {
      auto& waiting = lane.waiting;
      const auto kept = std::remove_if(waiting.begin(), waiting.end(), [&](const Send& s) {
        return erased.count(s.pending_id) > 0;
      });
      const auto dropped = std::distance(kept, waiting.end());
      waiting.erase(kept, waiting.end());
      for (auto i = dropped; i > 0; --i) in_flight_.remove(webhook_uuid);
      if (dropped > 0) {
        counters_.increment("webhook_sends_erased_total", static_cast<uint64_t>(dropped));
        wake();  // room for more claims
      }
    }
  });
}

void Dispatcher::send(Send s) {
  auto secret = secrets_.open(s.sealed_secret);
  if (!secret) {
    net::HttpResult result;
    result.error = "secret_unreadable: SECRETS_KEY differs from the one that sealed it";
    finish(std::move(s), std::move(result));
    return;
  }
  const int64_t timestamp = nowMicros() / 1'000'000;
  // Addresses signed when the event was written may have expired since (a retry, a
  // redelivery): each attempt carries addresses good for the hour after it.
  s.payload = media_urls_.refresh(std::move(s.payload), s.workspace_uuid, timestamp);
  net::HttpRequest request;
  request.url = s.url;
  request.headers = {{"webhook-id", s.event_id},
                     {"webhook-timestamp", std::to_string(timestamp)},
                     {"webhook-signature", sign(*secret, s.event_id, timestamp, s.payload)}};
  request.body = std::move(s.payload);  // the attempt's record does not need it
  client_->post(std::move(request), [this, s = std::move(s)](net::HttpResult result) mutable {
    finish(std::move(s), std::move(result));
  });
}

void Dispatcher::finish(Send s, net::HttpResult result) {
  Attempt attempt;
  attempt.outcome = schedule_.outcome(s.attempt, result);
  const char* outcome = attempt.outcome.succeeded  ? "succeeded"
                        : attempt.outcome.disable  ? "disabled"
                        : attempt.outcome.retry_in ? "retry"
                                                   : "given_up";
  counters_.increment(std::string("webhook_attempts_total{outcome=\"") + outcome + "\"}");
  if (attempt.outcome.disable) {
    log::warn("webhook_disabled_by_410", {{"webhook_uuid", s.webhook_uuid}});
  } else if (!attempt.outcome.succeeded && !attempt.outcome.retry_in) {
    log::warn("webhook_event_given_up", {{"webhook_uuid", s.webhook_uuid},
                                         {"event_id", s.event_id},
                                         {"attempts", std::to_string(s.attempt)}});
  }
  in_flight_.remove(s.webhook_uuid);
  wake();  // room for more claims; the record need not be waited for
  auto lane = lanes_.find(s.webhook_uuid);
  if (lane != lanes_.end()) {
    --lane->second.sending;
    if (!lane->second.waiting.empty()) {
      Send next = std::move(lane->second.waiting.front());
      lane->second.waiting.pop_front();
      ++lane->second.sending;
      boost::asio::post(io_, [this, next = std::move(next)]() mutable { send(std::move(next)); });
    } else if (lane->second.sending == 0) {
      lanes_.erase(lane);
    }
  }
  attempt.delivery_uuid = newUuid();
  attempt.send = std::move(s);
  attempt.result = std::move(result);
  recorder_->add(std::move(attempt));
}

}  // namespace feedback::webhooks
