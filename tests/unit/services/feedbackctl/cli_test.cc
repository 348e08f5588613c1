#include "services/feedbackctl/cli.h"

#include <catch2/catch.hpp>

using feedback::ctl::parseArguments;

TEST_CASE("feedbackctl: workspace create with every option", "[cli]") {
  auto c = parseArguments({"workspace", "create", "--name", "Acme", "--plan", "enterprise",
                           "--subdomain", "acme", "--rate-limit", "100000", "--link-quota", "2"});
  REQUIRE(c.create_workspace);
  CHECK(c.create_workspace->name == "Acme");
  CHECK(c.create_workspace->plan == "enterprise");
  CHECK(c.create_workspace->subdomain == "acme");
  CHECK(c.create_workspace->rate_limit == 100000);
  CHECK(c.create_workspace->link_quota == 2);
}

TEST_CASE("feedbackctl: defaults and set-plan", "[cli]") {
  auto c = parseArguments({"workspace", "create", "--name", "x"});
  CHECK(c.create_workspace->plan == "free");
  CHECK_FALSE(c.create_workspace->rate_limit);
  auto s = parseArguments({"workspace", "set-plan", "uuid", "pro"});
  REQUIRE(s.set_plan);
  CHECK(s.set_plan->plan == "pro");
  CHECK_FALSE(s.set_plan->rate_limit);
  CHECK(parseArguments({"--help"}).help);
}

TEST_CASE("feedbackctl: set-plan changes or clears the overrides it is given", "[cli]") {
  auto s = parseArguments(
      {"workspace", "set-plan", "uuid", "enterprise", "--rate-limit", "5", "--link-quota", "plan"});
  REQUIRE(s.set_plan);
  REQUIRE(s.set_plan->rate_limit);
  CHECK(s.set_plan->rate_limit->value == 5);
  CHECK_FALSE(s.set_plan->rate_limit->plan_default);
  REQUIRE(s.set_plan->link_quota);
  CHECK_FALSE(s.set_plan->link_quota->value);
  CHECK(s.set_plan->link_quota->plan_default);
}

TEST_CASE("feedbackctl: --retention-days sets days or none", "[cli]") {
  auto s = parseArguments({"workspace", "set-plan", "uuid", "pro", "--retention-days", "30"});
  REQUIRE(s.set_plan);
  REQUIRE(s.set_plan->retention_days);
  CHECK(*s.set_plan->retention_days == 30);
  s = parseArguments({"workspace", "set-plan", "uuid", "pro", "--retention-days", "none"});
  REQUIRE(s.set_plan->retention_days);
  CHECK_FALSE(*s.set_plan->retention_days);
  s = parseArguments({"workspace", "set-plan", "uuid", "pro"});
  CHECK_FALSE(s.set_plan->retention_days);
  auto c = parseArguments({"workspace", "create", "--name", "x", "--retention-days", "7"});
  REQUIRE(c.create_workspace);
  CHECK(c.create_workspace->retention_days == 7);
}

TEST_CASE("feedbackctl: create-key names the workspace and, optionally, the key", "[cli]") {
  auto c = parseArguments({"workspace", "create-key", "uuid"});
  REQUIRE(c.create_key);
  CHECK(c.create_key->workspace_uuid == "uuid");
  CHECK(c.create_key->name.empty());
  c = parseArguments({"workspace", "create-key", "uuid", "--name", "Privacy team"});
  CHECK(c.create_key->name == "Privacy team");
}

TEST_CASE("feedbackctl: bad arguments are refused with a reason", "[cli]") {
  using Args = std::vector<std::string>;
  for (const Args& args :
       {Args{"workspace", "create"},
        Args{"workspace", "create", "--name"},
        Args{"workspace", "create", "--name", "x", "--plan", "gold"},
        Args{"workspace", "create", "--name", "x", "--rate-limit", "ten"},
        Args{"workspace", "create", "--name", "x", "--link-quota", "-1"},
        Args{"workspace", "create", "--name", "x", "--colour", "red"},
        Args{"workspace", "set-plan", "uuid"},
        Args{"links"},
        Args{"workspace", "drop"},
        Args{"workspace", "set-plan", "uuid", "pro", "--rate-limit"},
        Args{"workspace", "set-plan", "uuid", "pro", "--rate-limit", "fast"},
        Args{"workspace", "set-plan", "uuid", "pro", "--colour", "red"},
        Args{"workspace", "set-plan", "--rate-limit", "5", "pro"},
        Args{"workspace", "set-plan", "uuid", "pro", "--retention-days", "0"},
        Args{"workspace", "set-plan", "uuid", "pro", "--retention-days", "36501"},
        Args{"workspace", "set-plan", "uuid", "pro", "--retention-days", "forever"},
        Args{"workspace", "set-plan", "uuid", "pro", "--retention-days"},
        Args{"workspace", "create", "--name", "x", "--retention-days", "none"},
        Args{"workspace", "create-key"},
        Args{"workspace", "create-key", "--name", "x"},
        Args{"workspace", "create-key", "uuid", "--name"},
        Args{"workspace", "create-key", "uuid", "--colour", "red"}}) {
    CHECK_THROWS_AS(parseArguments(args), std::invalid_argument);
  }
}
