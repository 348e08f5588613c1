#include "common/pg/pg_pool.h"

#include <poll.h>

#include <future>

#include <pqxx/pqxx>

#include "common/core/errors.h"
#include "common/core/log.h"
#include "common/pg/connect.h"

namespace feedback {

PgSession::PgSession(const std::string& url) : url_(url) {}
PgSession::~PgSession() = default;

pqxx::connection& PgSession::connection() {
  if (connection_ && serverClosed()) {
    log::info("postgres_reconnecting", {});
    connection_.reset();
  }
  if (!connection_) {
    try {
      connection_ = pg::connect(url_);
      if (prepare_) prepare_(*connection_);
      if (healthy_) *healthy_ = true;
    } catch (const std::exception& e) {
      connection_.reset();
      if (healthy_) *healthy_ = false;
      log::warn("postgres_connect_failed", {{"error", e.what()}});
      throw ApiError(ErrorCode::kServiceUnavailable, "The database is unavailable.");
    }
  }
  return *connection_;
}

void PgSession::reset() {
  connection_.reset();
}

bool PgSession::serverClosed() const {
  // An idle connection receives nothing unless the server ends it (a restart or an
  // administrator's termination sends an error and closes the socket): readable means gone.
  int fd = connection_->sock();
  if (fd < 0) return true;
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0;
}

PgPool::PgPool(std::string url, int workers, std::size_t queue_limit,
               std::function<void(pqxx::connection&)> prepare)
    : url_(std::move(url)), queue_limit_(queue_limit), prepare_(std::move(prepare)) {
  for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { run(); });
}

PgPool::~PgPool() {
  stop();
}

bool PgPool::trySubmit(Job job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || queue_.size() >= queue_limit_) return false;
    queue_.push_back(std::move(job));
  }
  ready_.notify_one();
  return true;
}

bool PgPool::probe(std::chrono::milliseconds timeout) {
  if (healthy_) return true;
  auto result = std::make_shared<std::promise<bool>>();
  auto answer = result->get_future();
  bool queued = trySubmit([result](PgSession& session) {
    try {
      pqxx::nontransaction tx(session.connection());
      tx.exec("SELECT 1");
      result->set_value(true);
    } catch (...) {
      result->set_value(false);
      throw;  // the worker drops a broken connection
    }
  });
  if (!queued || answer.wait_for(timeout) != std::future_status::ready) return false;
  bool ok = answer.get();
  if (ok) healthy_ = true;
  return ok;
}

std::size_t PgPool::queueDepth() {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

void PgPool::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
  }
  ready_.notify_all();
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

void PgPool::run() {
  PgSession session(url_);
  session.prepare_ = prepare_;
  session.healthy_ = &healthy_;
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      // Drain what was accepted before stopping: an accepted job is always answered.
      ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    try {
      job(session);
    } catch (const pqxx::broken_connection& e) {
      log::warn("postgres_connection_lost", {{"error", e.what()}});
      healthy_ = false;
      session.reset();
    } catch (const std::exception& e) {
      // Jobs answer their own errors; this only keeps the worker alive.
      log::error("pg_job_failed", {{"error", e.what()}});
    }
  }
}

}  // namespace feedback
