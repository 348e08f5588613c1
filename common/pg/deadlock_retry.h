#pragma once
// A transaction that PostgreSQL chose as a deadlock's victim (40P01) holds nothing any more:
// run again, it mostly goes through, the other side having finished meanwhile. For statements
// whose locks cannot always be taken in the order other writers take them (a delete that
// cascades from a parent to its children, beside writers that lock a child, then its parent).

#include <pqxx/except>

namespace feedback::pg {

inline constexpr int kDeadlockAttempts = 3;

template <class Run>
auto retryOnDeadlock(Run&& run) {
  for (int attempt = 1;; ++attempt) {
    try {
      return run();
    } catch (const pqxx::deadlock_detected&) {
      if (attempt >= kDeadlockAttempts) throw;
    }
  }
}

}  // namespace feedback::pg
