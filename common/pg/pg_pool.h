#pragma once
// A fixed set of worker threads, each owning one PostgreSQL connection. Callers on I/O or
// gRPC reactor threads hand work over with trySubmit() and never block: when the queue is
// full the submission is refused and the caller answers 503.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <pqxx/connection>
#include <string>
#include <thread>
#include <vector>

namespace feedback {

class PgSession {
 public:
  explicit PgSession(const std::string& url);
  ~PgSession();
  // The open connection, (re)connecting when needed; throws ApiError(kServiceUnavailable)
  // when PostgreSQL cannot be reached.
  pqxx::connection& connection();
  // Forgets the connection so that the next job opens a new one. Needed after
  // pqxx::broken_connection: libpqxx 6 still reports such a connection as open.
  void reset();

 private:
  friend class PgPool;
  bool serverClosed() const;
  const std::string& url_;
  std::atomic<bool>* healthy_ = nullptr;
  std::unique_ptr<pqxx::connection> connection_;
  std::function<void(pqxx::connection&)> prepare_;
};

class PgPool {
 public:
  using Job = std::function<void(PgSession&)>;
  // `prepare` runs on every new connection, e.g. to prepare statements.
  PgPool(std::string url, int workers, std::size_t queue_limit,
         std::function<void(pqxx::connection&)> prepare = nullptr);
  ~PgPool();
  PgPool(const PgPool&) = delete;
  PgPool& operator=(const PgPool&) = delete;

  // False when the queue is full or the pool is stopping; the job is then not run.
  bool trySubmit(Job job);
  void stop();
  std::size_t queueDepth();
  // False after the last attempt to reach PostgreSQL failed; true again once one succeeds.
  bool healthy() const { return healthy_; }
  // For readiness: healthy() while healthy; otherwise tries PostgreSQL (SELECT 1 on a worker,
  // waiting at most `timeout`), so that a pool nobody sends work to can still recover.
  bool probe(std::chrono::milliseconds timeout);

 private:
  void run();
  std::string url_;
  std::size_t queue_limit_;
  std::function<void(pqxx::connection&)> prepare_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  std::atomic<bool> healthy_{true};
  std::vector<std::thread> threads_;
};

}  // namespace feedback
