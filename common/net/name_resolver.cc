#include "common/net/name_resolver.h"

#include <boost/asio/io_context.hpp>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

namespace feedback::net {
namespace {

using Key = std::tuple<std::string, std::string, int>;  // host, port, flags

NameResolver::Lookup systemLookup() {
  return [](const std::string& host, const std::string& port, NameResolver::Flags flags) {
    // One io_context per thread: a blocking resolve only needs one to exist.
    thread_local boost::asio::io_context context;
    boost::asio::ip::tcp::resolver resolver(context);
    boost::system::error_code ec;
    auto results = resolver.resolve(host, port, flags, ec);
    return std::make_pair(ec, std::move(results));
  };
}

}  // namespace

struct NameResolver::State {
  std::size_t max_threads = 0;
  Lookup lookup;
  std::mutex mutex;
  std::condition_variable work;
  // Lookups asked for and not yet answered, each with everyone waiting for it.
  std::map<Key, std::vector<Done>> waiting;
  std::deque<Key> queue;  // of those, the ones no thread has taken yet
  std::size_t threads = 0;
  std::size_t idle = 0;
  bool stopped = false;

  static void run(const std::shared_ptr<State>& self);
};

void NameResolver::State::run(const std::shared_ptr<State>& self) {
  std::unique_lock lock(self->mutex);
  while (!self->stopped) {
    if (self->queue.empty()) {
      ++self->idle;
      self->work.wait(lock);
      --self->idle;
      continue;
    }
    Key key = std::move(self->queue.front());
    self->queue.pop_front();
    lock.unlock();
    auto [ec, results] =
        self->lookup(std::get<0>(key), std::get<1>(key), static_cast<Flags>(std::get<2>(key)));
    lock.lock();
    auto it = self->waiting.find(key);
    if (it == self->waiting.end()) continue;  // stopped meanwhile
    auto callers = std::move(it->second);
    self->waiting.erase(it);
    // Under the lock, so that stop() returns only once no `done` runs; each one only posts.
    for (auto& done : callers) done(ec, results);
  }
  --self->threads;
}

NameResolver::NameResolver(std::size_t max_threads, Lookup lookup)
    : state_(std::make_shared<State>()) {
  state_->max_threads = max_threads == 0 ? 1 : max_threads;
  state_->lookup = lookup ? std::move(lookup) : systemLookup();
}

NameResolver::~NameResolver() {
  stop();
}

void NameResolver::resolve(const std::string& host, const std::string& port, Flags flags,
                           Done done) {
  std::lock_guard lock(state_->mutex);
  if (state_->stopped) return;
  Key key{host, port, static_cast<int>(flags)};
  auto& callers = state_->waiting[key];
  callers.push_back(std::move(done));
  if (callers.size() > 1) return;  // that lookup is already asked for
  state_->queue.push_back(std::move(key));
  // Each idle thread takes one queued lookup (it counts as idle until it wakes): start another
  // thread when they cannot take them all, so that a lookup never waits behind another.
  if (state_->queue.size() > state_->idle && state_->threads < state_->max_threads) {
    ++state_->threads;
    // Detached: a lookup cannot be interrupted, and nobody should wait for one to time out.
    std::thread([state = state_] { State::run(state); }).detach();
  }
  state_->work.notify_one();
}

void NameResolver::stop() {
  std::map<Key, std::vector<Done>> dropped;
  {
    std::lock_guard lock(state_->mutex);
    state_->stopped = true;
    state_->queue.clear();
    dropped.swap(state_->waiting);
  }
  state_->work.notify_all();
  // `dropped` goes out of scope here, outside the lock: what its callbacks hold may take it.
}

}  // namespace feedback::net
