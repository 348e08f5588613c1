#pragma once
// Threads that each run an event loop of their own (Seastar's shards, Envoy's workers): what
// lives on one thread (a connection, its requests, a Redis connection, the answers it reads)
// stays there, so a request's steps hand nothing to another thread and need no locks. Work
// from elsewhere (a gRPC completion) is queued onto the thread it belongs to.

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace boost::asio {
class io_context;
}

namespace feedback {

class IoThreads {
 public:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  // `count` loops (at least one); their threads start with start().
  explicit IoThreads(int count);
  ~IoThreads();
  IoThreads(const IoThreads&) = delete;
  IoThreads& operator=(const IoThreads&) = delete;

  // Starts one thread per loop; each loop runs, idle or not, until stop().
  void start();
  // Stops every loop and joins its thread; what is still queued is never run.
  void stop();
  // Between start() and stop().
  bool running() const { return running_; }

  std::size_t size() const { return loops_.size(); }
  boost::asio::io_context& context(std::size_t index);
  // The index of the loop the calling thread runs, or kNone on any other thread.
  std::size_t current() const;
  // Runs `task` on loop `index`: at once when the caller is that loop's thread, else queued.
  void dispatch(std::size_t index, std::function<void()> task);
  // Queues `task` on loop `index`, even from its own thread.
  void post(std::size_t index, std::function<void()> task);

  struct Loop;

 private:
  std::vector<std::unique_ptr<Loop>> loops_;
  std::vector<std::thread> threads_;
  std::atomic<bool> running_{false};
};

}  // namespace feedback
