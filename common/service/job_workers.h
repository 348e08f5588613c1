#pragma once
// Background workers that take jobs queued in PostgreSQL (insights, transcriptions): each has
// a connection of its own, runs one job after another while there are any, looks again every
// `poll` (or at once when woken), and after a failure opens its connection again a moment
// later, saying so once in the log rather than at every attempt. Stopped and joined when
// destroyed, which must come before whatever the jobs use.

#include <pqxx/connection>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace feedback::service {

struct JobWorkerSettings {
  std::string name;  // the log events' prefix, e.g. "insight_jobs"
  std::string database_url;
  int workers = 1;
  std::chrono::milliseconds poll{1000};
  // On each new connection, e.g. to prepare statements.
  std::function<void(pqxx::connection&)> prepare;
  // On each worker's thread before its first job (e.g. to lower its CPU priority).
  std::function<void()> on_start = {};
};

class JobWorkers {
 public:
  // `run_one` does one job on the worker's connection: false when none was due; throws on a
  // failure.
  JobWorkers(JobWorkerSettings settings, std::function<bool(pqxx::connection&)> run_one);
  ~JobWorkers();
  JobWorkers(const JobWorkers&) = delete;
  JobWorkers& operator=(const JobWorkers&) = delete;

  // A job was queued here: an idle worker looks at once.
  void wake();

 private:
  void work();
  // False when stopping.
  bool sleep(std::chrono::milliseconds how_long);

  const JobWorkerSettings settings_;
  const std::function<bool(pqxx::connection&)> run_one_;
  std::mutex mutex_;
  std::condition_variable wake_;
  uint64_t wakes_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace feedback::service
