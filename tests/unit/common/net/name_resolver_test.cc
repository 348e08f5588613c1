#include "common/net/name_resolver.h"

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using feedback::net::NameResolver;
using namespace std::chrono_literals;

// A lookup that answers 127.0.0.1 for every name, except that names in `held` wait until
// released; it counts the lookups made per name.
class ScriptedLookup {
 public:
  NameResolver::Lookup function() {
    return [this](const std::string& host, const std::string& port, NameResolver::Flags) {
      std::unique_lock lock(mutex_);
      ++made_[host];
      changed_.notify_all();
      changed_.wait(lock, [&] { return released_ || host.rfind("held", 0) != 0; });
      boost::asio::io_context context;
      boost::asio::ip::tcp::resolver resolver(context);
      boost::system::error_code ec;
      auto results =
          resolver.resolve("127.0.0.1", port, boost::asio::ip::resolver_base::numeric_host, ec);
      return std::make_pair(ec, results);
    };
  }
  void release() {
    std::lock_guard lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }
  int made(const std::string& host) {
    std::lock_guard lock(mutex_);
    return made_[host];
  }
  bool waitMade(const std::string& host, int n) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 5s, [&] { return made_[host] >= n; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, int> made_;
  bool released_ = false;
};

// What `done` callbacks received.
struct Answers {
  std::mutex mutex;
  std::condition_variable arrived;
  std::vector<std::string> hosts;

  NameResolver::Done expect(std::string host) {
    return [this, host](boost::system::error_code ec, NameResolver::Results results) {
      std::lock_guard lock(mutex);
      hosts.push_back(!ec && !results.empty() ? host : host + ": failed");
      arrived.notify_all();
    };
  }
  bool waitFor(std::size_t n) {
    std::unique_lock lock(mutex);
    return arrived.wait_for(lock, 5s, [&] { return hosts.size() >= n; });
  }
  std::size_t count() {
    std::lock_guard lock(mutex);
    return hosts.size();
  }
};

constexpr auto kFlags = boost::asio::ip::resolver_base::numeric_service;

}  // namespace

TEST_CASE("name resolver: a lookup that hangs delays no other name", "[net]") {
  ScriptedLookup lookup;
  Answers answers;
  {
    NameResolver resolver(4, lookup.function());
    resolver.resolve("held.example", "443", kFlags, answers.expect("held.example"));
    REQUIRE(lookup.waitMade("held.example", 1));
    resolver.resolve("a.example", "443", kFlags, answers.expect("a.example"));
    resolver.resolve("b.example", "443", kFlags, answers.expect("b.example"));
    REQUIRE(answers.waitFor(2));
    {
      std::lock_guard lock(answers.mutex);
      CHECK_THAT(answers.hosts, Catch::Matchers::UnorderedEquals(
                                    std::vector<std::string>{"a.example", "b.example"}));
    }
    lookup.release();
    REQUIRE(answers.waitFor(3));
    std::lock_guard lock(answers.mutex);
    CHECK(answers.hosts.back() == "held.example");
  }
}

TEST_CASE("name resolver: concurrent lookups of one name share one", "[net]") {
  ScriptedLookup lookup;
  Answers answers;
  NameResolver resolver(4, lookup.function());
  for (int i = 0; i < 5; ++i) {
    resolver.resolve("held.shared", "443", kFlags, answers.expect("held.shared"));
  }
  REQUIRE(lookup.waitMade("held.shared", 1));
  lookup.release();
  REQUIRE(answers.waitFor(5));
  CHECK(lookup.made("held.shared") == 1);
  // Once answered, the next lookup of that name asks again.
  resolver.resolve("held.shared", "443", kFlags, answers.expect("held.shared"));
  REQUIRE(answers.waitFor(6));
  CHECK(lookup.made("held.shared") == 2);
}

TEST_CASE("name resolver: at most max_threads lookups at once, the others queue", "[net]") {
  ScriptedLookup lookup;
  Answers answers;
  NameResolver resolver(2, lookup.function());
  resolver.resolve("held.1", "443", kFlags, answers.expect("held.1"));
  resolver.resolve("held.2", "443", kFlags, answers.expect("held.2"));
  resolver.resolve("held.3", "443", kFlags, answers.expect("held.3"));
  REQUIRE(lookup.waitMade("held.1", 1));
  REQUIRE(lookup.waitMade("held.2", 1));
  std::this_thread::sleep_for(100ms);
  CHECK(lookup.made("held.3") == 0);
  lookup.release();
  REQUIRE(answers.waitFor(3));
  CHECK(lookup.made("held.3") == 1);
}

TEST_CASE("name resolver: stop drops the answers not yet given and refuses new lookups", "[net]") {
  ScriptedLookup lookup;
  Answers answers;
  NameResolver resolver(2, lookup.function());
  resolver.resolve("held.stopped", "443", kFlags, answers.expect("held.stopped"));
  REQUIRE(lookup.waitMade("held.stopped", 1));
  resolver.stop();
  resolver.resolve("after.stop", "443", kFlags, answers.expect("after.stop"));
  lookup.release();
  std::this_thread::sleep_for(100ms);
  CHECK(answers.count() == 0);
  CHECK(lookup.made("after.stop") == 0);
}

TEST_CASE("name resolver: the system lookup reads numeric hosts", "[net]") {
  Answers answers;
  NameResolver resolver(1);
  resolver.resolve("127.0.0.1", "443", kFlags | boost::asio::ip::resolver_base::numeric_host,
                   answers.expect("127.0.0.1"));
  REQUIRE(answers.waitFor(1));
  std::lock_guard lock(answers.mutex);
  CHECK(answers.hosts[0] == "127.0.0.1");
}
