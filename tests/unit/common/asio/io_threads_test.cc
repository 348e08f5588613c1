#include "common/asio/io_threads.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <future>
#include <memory>
#include <thread>

using feedback::IoThreads;

namespace {

// Where the dispatched task ran, and whether it ran inside the dispatch() call that sent it:
// on the same thread before that call returned.
struct Ran {
  std::size_t loop = IoThreads::kNone;
  bool inside_dispatch = false;
};

Ran dispatchFrom(IoThreads& loops, std::size_t from, std::size_t to) {
  std::promise<Ran> ran;
  loops.post(from, [&] {
    const auto dispatcher = std::this_thread::get_id();
    auto dispatching = std::make_shared<std::atomic<bool>>(true);
    loops.dispatch(to, [&loops, &ran, dispatcher, dispatching] {
      ran.set_value({loops.current(), std::this_thread::get_id() == dispatcher && *dispatching});
    });
    *dispatching = false;
  });
  return ran.get_future().get();
}

}  // namespace

TEST_CASE("io threads: each loop knows itself, other threads are on none", "[io_threads]") {
  IoThreads loops(3);
  loops.start();
  REQUIRE(loops.size() == 3);
  CHECK(loops.current() == IoThreads::kNone);
  for (std::size_t i = 0; i < loops.size(); ++i) {
    std::promise<std::size_t> seen;
    loops.post(i, [&] { seen.set_value(loops.current()); });
    CHECK(seen.get_future().get() == i);
  }
  // Another instance's loops are not this one's.
  IoThreads other(1);
  other.start();
  std::promise<std::size_t> seen;
  other.post(0, [&] { seen.set_value(loops.current()); });
  CHECK(seen.get_future().get() == IoThreads::kNone);
}

TEST_CASE("io threads: dispatch runs at once on its own loop and is queued from another",
          "[io_threads]") {
  IoThreads loops(2);
  loops.start();
  const Ran same = dispatchFrom(loops, 1, 1);
  CHECK(same.loop == 1);
  CHECK(same.inside_dispatch);
  const Ran other = dispatchFrom(loops, 0, 1);
  CHECK(other.loop == 1);
  CHECK_FALSE(other.inside_dispatch);
}

TEST_CASE("io threads: stop ends every loop; work queued after it never runs", "[io_threads]") {
  IoThreads loops(2);
  loops.start();
  CHECK(loops.running());
  std::promise<void> ran;
  loops.post(1, [&ran] { ran.set_value(); });
  ran.get_future().wait();
  loops.stop();
  CHECK_FALSE(loops.running());
  std::atomic<bool> ran_after_stop{false};
  loops.post(1, [&ran_after_stop] { ran_after_stop = true; });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(ran_after_stop);
}
