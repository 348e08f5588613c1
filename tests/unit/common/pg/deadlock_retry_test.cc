#include "common/pg/deadlock_retry.h"

#include <catch2/catch.hpp>
#include <stdexcept>

using feedback::pg::kDeadlockAttempts;
using feedback::pg::retryOnDeadlock;

TEST_CASE("a deadlock's victim runs again, up to three times", "[pg]") {
  int runs = 0;
  auto failing = [&runs](int failures) {
    return [&runs, failures] {
      if (++runs <= failures) throw pqxx::deadlock_detected("deadlock detected");
      return runs;
    };
  };
  CHECK(retryOnDeadlock(failing(0)) == 1);
  runs = 0;
  CHECK(retryOnDeadlock(failing(kDeadlockAttempts - 1)) == kDeadlockAttempts);
  runs = 0;
  CHECK_THROWS_AS(retryOnDeadlock(failing(kDeadlockAttempts)), pqxx::deadlock_detected);
  CHECK(runs == kDeadlockAttempts);
}

TEST_CASE("other errors are not run again", "[pg]") {
  int runs = 0;
  CHECK_THROWS_AS(retryOnDeadlock([&runs]() -> int {
                    ++runs;
                    throw pqxx::unique_violation("duplicate key");
                  }),
                  pqxx::unique_violation);
  CHECK(runs == 1);
}
