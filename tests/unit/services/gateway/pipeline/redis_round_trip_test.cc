#include "services/gateway/pipeline/redis_round_trip.h"

#include <catch2/catch.hpp>

using feedback::RedisReply;
using feedback::gateway::RedisReplies;
using feedback::gateway::RedisRoundTrip;

namespace {

std::optional<RedisReply> text(std::string value) {
  RedisReply r;
  r.type = RedisReply::Type::kString;
  r.str = std::move(value);
  return r;
}

}  // namespace

TEST_CASE("round trip: each part reads the answer at the slot it got", "[pipeline]") {
  RedisRoundTrip trip;
  CHECK(trip.empty());
  const auto version = trip.add({"GET", "v"});
  const auto admission = trip.add({"EVALSHA", "sha", "1", "w"});
  CHECK(trip.size() == 2);
  CHECK_FALSE(trip.answer(version).has_value());  // not made yet

  const auto before = RedisRoundTrip::Clock::now();
  CHECK(trip.command(admission).at(0) == "EVALSHA");
  const auto sent = trip.send(7);
  CHECK(sent.size() == 2);
  CHECK(trip.keyRead(version) == "v");  // still known once sent
  CHECK(trip.keyRead(admission).empty());
  CHECK(trip.sentAt() >= before);

  RedisReplies replies;
  replies.push_back(text("3"));
  trip.receive(std::move(replies), 7);  // the admission went unanswered
  CHECK(trip.epoch() == 7);
  CHECK(trip.answer(version)->str == "3");
  CHECK_FALSE(trip.answer(admission).has_value());
  CHECK(trip.take(version)->str == "3");
}

TEST_CASE("round trip: a reconnection while it was under way keeps no epoch", "[pipeline]") {
  RedisRoundTrip trip;
  trip.add({"GET", "v"});
  trip.send(7);
  RedisReplies replies;
  replies.push_back(text("3"));
  trip.receive(std::move(replies), 8);
  CHECK(trip.epoch() == 0);
  CHECK(trip.answer(0)->str == "3");
}
