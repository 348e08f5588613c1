#include "services/gateway/auth/caller_records.h"

#include <catch2/catch.hpp>
#include <future>

#include "common/redis/key_cache.h"

using feedback::IoThreads;
using feedback::common::v1::Caller;
using feedback::gateway::CallerPtr;
using feedback::gateway::CallerRecords;

namespace {

std::string recordFor(const std::string& workspace_uuid) {
  Caller caller;
  caller.mutable_workspace()->set_uuid(workspace_uuid);
  caller.add_scopes("links:read");
  caller.add_scopes("responses:read");
  return feedback::keycache::recordOf(caller);
}

CallerPtr parseOn(IoThreads& loops, CallerRecords& records, std::size_t loop,
                  const std::string& record) {
  std::promise<CallerPtr> parsed;
  loops.post(loop, [&] { parsed.set_value(records.parse(record)); });
  return parsed.get_future().get();
}

}  // namespace

TEST_CASE("caller records: a loop parses a record once and shares the caller", "[caller_records]") {
  IoThreads loops(2);
  loops.start();
  CallerRecords records(&loops);
  const auto record = recordFor("ws-1");
  auto first = parseOn(loops, records, 0, record);
  REQUIRE(first);
  CHECK(first->workspace().uuid() == "ws-1");
  CHECK(first->scopes_size() == 2);
  CHECK(parseOn(loops, records, 0, record) == first);
  // Each loop keeps its own: nothing is shared between threads but immutable callers.
  auto other_loop = parseOn(loops, records, 1, record);
  CHECK(other_loop != first);
  CHECK(other_loop->workspace().uuid() == "ws-1");
  // Another record is another caller.
  CHECK(parseOn(loops, records, 0, recordFor("ws-2"))->workspace().uuid() == "ws-2");
}

TEST_CASE("caller records: what is no record is refused, and off the loops nothing is kept",
          "[caller_records]") {
  IoThreads loops(1);
  loops.start();
  CallerRecords records(&loops);
  CHECK_FALSE(parseOn(loops, records, 0, "revoked"));
  CHECK_FALSE(parseOn(loops, records, 0, "v3:whatever"));
  const auto record = recordFor("ws-1");
  auto here = records.parse(record);  // this thread runs no loop
  REQUIRE(here);
  CHECK(records.parse(record) != here);
  CallerRecords without_loops(nullptr);
  CHECK(without_loops.parse(record)->workspace().uuid() == "ws-1");
}

TEST_CASE("caller records: a loop holds a bounded number", "[caller_records]") {
  IoThreads loops(1);
  loops.start();
  CallerRecords records(&loops);
  const auto first_record = recordFor("ws-0");
  auto first = parseOn(loops, records, 0, first_record);
  for (std::size_t i = 1; i < CallerRecords::kMaxPerLoop; ++i) {
    parseOn(loops, records, 0, recordFor("ws-" + std::to_string(i)));
  }
  CHECK(parseOn(loops, records, 0, first_record) == first);
  // One more starts the loop's records afresh.
  parseOn(loops, records, 0, recordFor("ws-new"));
  CHECK(parseOn(loops, records, 0, first_record) != first);
}

TEST_CASE("caller records: a loop remembers which keys it found valid, for a while",
          "[caller_records]") {
  IoThreads loops(2);
  loops.start();
  CallerRecords records(&loops);
  auto caller = std::make_shared<const Caller>();
  const auto now = CallerRecords::Clock::now();
  const auto second = std::chrono::seconds(1);
  auto on = [&](std::size_t loop, auto step) {
    std::promise<CallerPtr> done;
    loops.post(loop, [&] { done.set_value(step()); });
    return done.get_future().get();
  };
  on(0, [&] {
    records.accepted("hash-1", caller, now);
    return nullptr;
  });
  CHECK(on(0, [&] { return records.recent("hash-1", now + second / 2, second); }) == caller);
  CHECK_FALSE(on(0, [&] { return records.recent("hash-1", now + 2 * second, second); }));
  CHECK_FALSE(on(0, [&] { return records.recent("hash-2", now, second); }));
  // Another loop has not found it valid itself.
  CHECK_FALSE(on(1, [&] { return records.recent("hash-1", now, second); }));
  // Off the loops nothing is remembered.
  records.accepted("hash-3", caller, now);
  CHECK_FALSE(records.recent("hash-3", now, second));
}
