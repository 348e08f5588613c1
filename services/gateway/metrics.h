#pragma once
// Process counters, rendered in the Prometheus text format on the admin port.

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "services/gateway/route_metrics.h"

namespace feedback::gateway {

class Metrics {
 public:
  void countResponse(int status);
  std::atomic<uint64_t> key_cache_hits{0};
  // Refused by a refusal kept locally, for a key found valid within its life: no lookup.
  std::atomic<uint64_t> key_lookups_skipped{0};
  std::atomic<uint64_t> key_cache_misses{0};
  // Redis unreachable: keys verified by the tokens service instead (degraded mode).
  std::atomic<uint64_t> key_cache_bypassed{0};
  std::atomic<uint64_t> key_cache_fill_failures{0};
  std::atomic<uint64_t> link_cache_hits{0};
  std::atomic<uint64_t> link_cache_misses{0};
  // Redis did not answer: link documents read from the links service without the cache.
  std::atomic<uint64_t> link_cache_bypassed{0};
  std::atomic<uint64_t> response_page_cache_hits{0};
  std::atomic<uint64_t> response_page_cache_misses{0};
  // A submission pending, no current token, Redis silent or Cache-Control: no-cache: the
  // page read without the cache.
  std::atomic<uint64_t> response_page_cache_bypassed{0};
  // Rate limit decisions by where they were made: the shared window in Redis, or this
  // replica's own while Redis does not answer (fail open); refused as unavailable when it
  // does not answer in fail-closed mode.
  std::atomic<uint64_t> rate_admitted_shared{0};
  std::atomic<uint64_t> rate_limited_shared{0};
  std::atomic<uint64_t> rate_admitted_local{0};
  std::atomic<uint64_t> rate_limited_local{0};
  std::atomic<uint64_t> rate_admitted_replica{0};
  std::atomic<uint64_t> rate_limited_replica{0};
  std::atomic<uint64_t> rate_unavailable{0};
  // 1 while decisions are local (the last admission's Redis call got no answer).
  std::atomic<int> rate_degraded{0};
  // Idempotency-Key: answers replayed, refused as in use or reused with another request,
  // refused because Redis did not answer, and first answers that could not be stored.
  std::atomic<uint64_t> idempotency_replayed{0};
  std::atomic<uint64_t> idempotency_in_use{0};
  std::atomic<uint64_t> idempotency_reused{0};
  std::atomic<uint64_t> idempotency_unavailable{0};
  std::atomic<uint64_t> idempotency_store_failures{0};
  // Per route: requests by status class and their durations (registered at start-up).
  RouteMetrics routes;
  std::string render(std::size_t open_connections) const;

 private:
  std::array<std::atomic<uint64_t>, 6> by_class_{};  // index: status / 100
};

}  // namespace feedback::gateway
