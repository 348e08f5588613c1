// Against a real Redis (REDIS_PORT): run by tests/integration/test_resilience.py with the
// stack's, as "common_tests [.redis]".
#include "common/redis/redis_client.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <future>
#include <thread>

#include "common/asio/io_threads.h"

using feedback::IoThreads;
using feedback::RedisClient;
using feedback::RedisReply;

namespace {

int redisPort() {
  const char* port = std::getenv("REDIS_PORT");
  REQUIRE(port != nullptr);
  return std::atoi(port);
}

bool waitUntil(const std::function<bool()>& condition) {
  for (int i = 0; i < 200 && !condition(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return condition();
}

struct Answer {
  std::optional<RedisReply> reply;
  std::size_t answered_on = IoThreads::kNone;
};

// Sends `args` from loop `from` (kNone: from this thread) and waits for the answer.
Answer commandFrom(IoThreads& loops, RedisClient& redis, std::size_t from,
                   std::vector<std::string> args) {
  std::promise<Answer> answered;
  auto send = [&] {
    redis.command(std::move(args), [&](std::optional<RedisReply> reply) {
      answered.set_value({std::move(reply), loops.current()});
    });
  };
  if (from == IoThreads::kNone) {
    send();
  } else {
    loops.post(from, send);
  }
  return answered.get_future().get();
}

// Two loops, and a client with a connection on each, both connected.
struct ConnectedClient {
  ConnectedClient() {
    loops.start();
    REQUIRE(waitUntil([&] { return redis.connected(); }));
  }

  IoThreads loops{2};
  RedisClient redis{loops, "127.0.0.1", redisPort()};
};

}  // namespace

TEST_CASE_METHOD(ConnectedClient,
                 "redis client on loops: a command is answered on the loop that sent it",
                 "[.redis]") {
  for (std::size_t loop : {0, 1, 1, 0}) {
    auto answer = commandFrom(loops, redis, loop, {"PING"});
    REQUIRE(answer.reply);
    CHECK(answer.reply->str == "PONG");
    CHECK(answer.answered_on == loop);
  }
  // From a thread that runs no loop: on the first loop.
  auto answer = commandFrom(loops, redis, IoThreads::kNone, {"ECHO", "x"});
  REQUIRE(answer.reply);
  CHECK(answer.reply->str == "x");
  CHECK(answer.answered_on == 0);
}

TEST_CASE_METHOD(ConnectedClient,
                 "redis client on loops: the epoch moves when any loop's connection is remade",
                 "[.redis]") {
  const uint64_t before = redis.connectionEpoch();
  CHECK(before >= 2);
  // Loop 1's connection is dropped by Redis itself; the client connects again.
  auto id = commandFrom(loops, redis, 1, {"CLIENT", "ID"});
  REQUIRE(id.reply);
  auto killed =
      commandFrom(loops, redis, 0, {"CLIENT", "KILL", "ID", std::to_string(id.reply->integer)});
  REQUIRE(killed.reply);
  CHECK(killed.reply->integer == 1);
  REQUIRE(waitUntil([&] { return redis.connectionEpoch() > before && redis.connected(); }));
  auto again = commandFrom(loops, redis, 1, {"PING"});
  REQUIRE(again.reply);
  CHECK(again.answered_on == 1);
}

TEST_CASE_METHOD(ConnectedClient,
                 "redis client on loops: a pipeline's answers come in order, in one callback",
                 "[.redis]") {
  std::promise<std::pair<std::vector<std::optional<RedisReply>>, std::size_t>> answered;
  loops.post(1, [&] {
    redis.pipeline({{"SET", "redis-client-test", "1"},
                    {"INCR", "redis-client-test"},
                    {"GET", "redis-client-test"}},
                   [&](std::vector<std::optional<RedisReply>> replies) {
                     answered.set_value({std::move(replies), loops.current()});
                   });
  });
  auto [replies, loop] = answered.get_future().get();
  REQUIRE(replies.size() == 3);
  CHECK(loop == 1);
  CHECK(replies[1]->integer == 2);
  CHECK(replies[2]->str == "2");
}

TEST_CASE("redis client on loops: destroyed while its loops run, or after they stopped",
          "[.redis]") {
  IoThreads loops(2);
  loops.start();
  {
    RedisClient redis(loops, "127.0.0.1", redisPort());
    REQUIRE(waitUntil([&] { return redis.connected(); }));
  }
  {
    RedisClient redis(loops, "127.0.0.1", redisPort());
    REQUIRE(waitUntil([&] { return redis.connected(); }));
    loops.stop();
  }
  SUCCEED("no hang, no crash");
}
