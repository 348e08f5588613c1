#include "services/webhooks/attempt_recorder.h"

#include <chrono>
#include <optional>
#include <pqxx/pqxx>

#include "common/core/log.h"
#include "common/pg/connect.h"

namespace feedback::webhooks {
namespace {

constexpr std::size_t kBatch = 500;
constexpr auto kReconnectDelay = std::chrono::milliseconds(500);
constexpr auto kStopGrace = std::chrono::seconds(5);

}  // namespace

AttemptRecorder::AttemptRecorder(std::string database_url, std::function<void()> recorded)
    : database_url_(std::move(database_url)),
      recorded_(std::move(recorded)),
      thread_([this] { run(); }) {}

AttemptRecorder::~AttemptRecorder() {
  stop();
}

void AttemptRecorder::add(Attempt attempt) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(attempt));
  }
  ready_.notify_one();
}

void AttemptRecorder::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  ready_.notify_one();
  if (thread_.joinable()) thread_.join();
}

bool AttemptRecorder::take(std::vector<Attempt>& batch) {
  std::unique_lock lock(mutex_);
  ready_.wait(lock, [this, &batch] { return stopping_ || !queue_.empty() || !batch.empty(); });
  while (!queue_.empty() && batch.size() < kBatch) {
    batch.push_back(std::move(queue_.front()));
    queue_.pop_front();
  }
  return !batch.empty();
}

void AttemptRecorder::run() {
  std::vector<Attempt> batch;
  std::optional<std::chrono::steady_clock::time_point> give_up_at;
  while (take(batch)) {
    if (write(batch)) {
      batch.clear();
      recorded_();
      continue;
    }
    bool stopping;
    {
      std::lock_guard lock(mutex_);
      stopping = stopping_;
    }
    if (stopping && !give_up_at) give_up_at = std::chrono::steady_clock::now() + kStopGrace;
    if (give_up_at && std::chrono::steady_clock::now() > *give_up_at) {
      // Their sends come due again when their leases run out, and are made once more.
      log::error("webhook_attempts_unrecorded_at_exit",
                 {{"attempts", std::to_string(batch.size())}});
      return;
    }
    std::this_thread::sleep_for(kReconnectDelay);
  }
}

PgDispatchStore AttemptRecorder::store() {
  if (!connection_) {
    connection_ = pg::connect(database_url_);
    PgDispatchStore::prepareDispatcher(*connection_);
  }
  return PgDispatchStore(*connection_);
}

bool AttemptRecorder::write(const std::vector<Attempt>& batch) {
  try {
    try {
      store().record(batch);
    } catch (const pqxx::sql_error& e) {
      // One attempt can fail a batch (its webhook deleted while it was sent): record them one
      // by one, so that only such attempts are dropped.
      for (const auto& attempt : batch) {
        try {
          store().record({attempt});
        } catch (const pqxx::sql_error& one) {
          log::warn("webhook_attempt_dropped",
                    {{"webhook_uuid", attempt.send.webhook_uuid}, {"error", one.what()}});
        }
      }
    }
    if (failing_) log::info("webhook_attempts_recorded_again");
    failing_ = false;
    return true;
  } catch (const std::exception& e) {
    connection_.reset();
    if (!failing_) log::warn("webhook_attempts_not_recorded", {{"error", e.what()}});
    failing_ = true;
    return false;
  }
}

}  // namespace feedback::webhooks
