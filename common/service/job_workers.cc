#include "common/service/job_workers.h"

#include "common/core/log.h"
#include "common/pg/connect.h"

namespace feedback::service {
namespace {

constexpr std::chrono::seconds kReconnectDelay{1};

}  // namespace

JobWorkers::JobWorkers(JobWorkerSettings settings, std::function<bool(pqxx::connection&)> run_one)
    : settings_(std::move(settings)), run_one_(std::move(run_one)) {
  for (int i = 0; i < settings_.workers; ++i) threads_.emplace_back([this] { work(); });
}

JobWorkers::~JobWorkers() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void JobWorkers::wake() {
  {
    std::lock_guard lock(mutex_);
    ++wakes_;
  }
  wake_.notify_one();
}

bool JobWorkers::sleep(std::chrono::milliseconds how_long) {
  std::unique_lock lock(mutex_);
  const uint64_t seen = wakes_;
  wake_.wait_for(lock, how_long, [&] { return stopping_ || wakes_ != seen; });
  return !stopping_;
}

void JobWorkers::work() {
  if (settings_.on_start) settings_.on_start();
  std::unique_ptr<pqxx::connection> connection;
  bool failing = false;
  while (true) {
    bool busy = false;
    try {
      if (!connection) {
        connection = pg::connect(settings_.database_url);
        if (settings_.prepare) settings_.prepare(*connection);
      }
      busy = run_one_(*connection);
      if (failing) log::info(settings_.name + "_working_again", {});
      failing = false;
    } catch (const std::exception& e) {
      connection.reset();
      if (!failing) log::warn(settings_.name + "_failing", {{"error", e.what()}});
      failing = true;
      if (!sleep(kReconnectDelay)) return;
      continue;
    }
    if (busy) {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    } else if (!sleep(settings_.poll)) {
      return;
    }
  }
}

}  // namespace feedback::service
