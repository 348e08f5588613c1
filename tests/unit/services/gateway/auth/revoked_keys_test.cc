#include "services/gateway/auth/revoked_keys.h"

#include <catch2/catch.hpp>
#include <thread>

TEST_CASE("revoked keys: remembered for a while, then forgotten", "[revocation]") {
  feedback::gateway::RevokedKeys recent(std::chrono::seconds(60));
  CHECK_FALSE(recent.contains("abc"));
  recent.add("abc");
  CHECK(recent.contains("abc"));
  CHECK_FALSE(recent.contains("abd"));
  feedback::gateway::RevokedKeys brief(std::chrono::seconds(0));
  brief.add("old");
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  brief.add("new");  // adding prunes what has expired
  CHECK_FALSE(brief.contains("old"));
}
