#include "services/gateway/auth/revoked_keys.h"

#include <catch2/catch.hpp>
#include <thread>

TEST_CASE("revoked keys: remembered for a while, then forgotten", "[revocation]") {
  feedback::gateway::RevokedKeys recent({}, std::chrono::seconds(60));
  CHECK_FALSE(recent.contains("abc"));
  recent.add("abc");
  CHECK(recent.contains("abc"));
  CHECK_FALSE(recent.contains("abd"));
  feedback::gateway::RevokedKeys brief({}, std::chrono::seconds(0));
  brief.add("old");
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  brief.add("new");  // adding prunes what has expired
  CHECK_FALSE(brief.contains("old"));
}

TEST_CASE("revoked keys: a request asks again when the channel was down or reconnected",
          "[revocation]") {
  feedback::gateway::FeedMark now{3, true};
  feedback::gateway::RevokedKeys keys([&now] { return now; });
  auto mark = keys.mark();
  CHECK_FALSE(keys.mayHaveMissed(mark));
  now.live = false;  // the subscription is down now
  CHECK(keys.mayHaveMissed(mark));
  now = {4, true};  // and back, on a new connection
  CHECK(keys.mayHaveMissed(mark));
  auto while_down = feedback::gateway::FeedMark{4, false};
  CHECK(keys.mayHaveMissed(while_down));
  CHECK_FALSE(keys.mayHaveMissed(keys.mark()));
  CHECK_FALSE(feedback::gateway::RevokedKeys().mayHaveMissed({}));
}
