#pragma once
// Runs a function every `interval` (first at once, or after one interval) on its own thread
// until destroyed, e.g. to retry work that failed on the request path. The function must not
// throw.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace feedback::service {

class PeriodicTask {
 public:
  enum class Start { kAfterInterval, kAtOnce };
  PeriodicTask(std::chrono::milliseconds interval, std::function<void()> run,
               Start start = Start::kAfterInterval)
      : interval_(interval), run_(std::move(run)), start_(start), thread_([this] { loop(); }) {}
  ~PeriodicTask() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  PeriodicTask(const PeriodicTask&) = delete;
  PeriodicTask& operator=(const PeriodicTask&) = delete;

  // For a long run: true once the task is being destroyed, so that it can end early.
  bool stopping() {
    std::lock_guard lock(mutex_);
    return stopping_;
  }

 private:
  void loop() {
    std::unique_lock lock(mutex_);
    if (start_ == Start::kAtOnce && !stopping_) {
      lock.unlock();
      run_();
      lock.lock();
    }
    while (!wake_.wait_for(lock, interval_, [this] { return stopping_; })) {
      lock.unlock();
      run_();
      lock.lock();
    }
  }
  std::chrono::milliseconds interval_;
  std::function<void()> run_;
  const Start start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace feedback::service
