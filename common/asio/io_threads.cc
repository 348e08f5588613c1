#include "common/asio/io_threads.h"

#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

namespace asio = boost::asio;

namespace feedback {
namespace {

// Which loop this thread runs: set once, when the thread starts, and read by it alone.
thread_local const IoThreads* tl_owner = nullptr;
thread_local std::size_t tl_index = IoThreads::kNone;

}  // namespace

struct IoThreads::Loop {
  // One thread runs it: the hint lets Asio leave out the locks a shared loop needs.
  asio::io_context io{1};
  asio::executor_work_guard<asio::io_context::executor_type> work{io.get_executor()};
};

IoThreads::IoThreads(int count) {
  for (int i = 0; i < std::max(1, count); ++i) loops_.push_back(std::make_unique<Loop>());
}

IoThreads::~IoThreads() {
  stop();
}

void IoThreads::start() {
  if (running_.exchange(true)) return;
  for (std::size_t i = 0; i < loops_.size(); ++i) {
    threads_.emplace_back([this, i] {
      tl_owner = this;
      tl_index = i;
      loops_[i]->io.run();
    });
  }
}

void IoThreads::stop() {
  for (auto& loop : loops_) loop->io.stop();
  for (auto& thread : threads_) thread.join();
  threads_.clear();
  running_ = false;
}

asio::io_context& IoThreads::context(std::size_t index) {
  return loops_.at(index)->io;
}

std::size_t IoThreads::current() const {
  return tl_owner == this ? tl_index : kNone;
}

void IoThreads::dispatch(std::size_t index, std::function<void()> task) {
  if (current() == index) return task();
  asio::post(loops_.at(index)->io, std::move(task));
}

void IoThreads::post(std::size_t index, std::function<void()> task) {
  asio::post(loops_.at(index)->io, std::move(task));
}

}  // namespace feedback
