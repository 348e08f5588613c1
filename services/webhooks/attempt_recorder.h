#pragma once
// Writes attempts to PostgreSQL off the I/O thread, many per statement. An attempt that cannot
// be written is retried until it can; if the process dies first, its send's lease runs out
// and the send is made again (at least once, with the same webhook-id).

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <pqxx/connection>
#include <string>
#include <thread>

#include "services/webhooks/pg_dispatch_store.h"

namespace feedback::webhooks {

class AttemptRecorder {
 public:
  // `recorded` runs on the recorder's thread after each written batch.
  AttemptRecorder(std::string database_url, std::function<void()> recorded);
  ~AttemptRecorder();
  void add(Attempt attempt);
  // Writes what is queued (waiting at most a few seconds), then stops.
  void stop();

 private:
  void run();
  // Waits for attempts; false once stopped with nothing left.
  bool take(std::vector<Attempt>& batch);
  // False when PostgreSQL could not be reached (the batch is kept for another try).
  bool write(const std::vector<Attempt>& batch);
  PgDispatchStore store();
  std::string database_url_;
  std::unique_ptr<pqxx::connection> connection_;
  bool failing_ = false;
  std::function<void()> recorded_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Attempt> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace feedback::webhooks
