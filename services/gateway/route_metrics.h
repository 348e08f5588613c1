#pragma once
// Rate, errors and duration per route (RED): requests by route pattern, method and status
// class, and a latency histogram, rendered in the Prometheus text format. Routes are registered
// once at start-up, so that recording an answer takes no lock.

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/core/counters.h"

namespace feedback::gateway {

class RouteMetrics {
 public:
  // The buckets of every latency histogram of the project.
  static constexpr auto kBuckets = Counters::kBuckets;

  RouteMetrics();
  // Before any observe(): `route` is the key observe() is given for it.
  void add(const void* route, std::string pattern, std::string method);
  // `route` null or unknown: counted as "unmatched" (the router's 404, 405, 301).
  void observe(const void* route, int status, std::chrono::nanoseconds took);
  std::string render() const;

 private:
  struct Slot {
    std::string pattern;
    std::string method;
    std::array<std::atomic<uint64_t>, 6> by_class{};  // index: status / 100
    std::array<std::atomic<uint64_t>, kBuckets.size() + 1> buckets{};
    std::atomic<uint64_t> sum_us{0};
  };
  std::vector<std::unique_ptr<Slot>> slots_;
  std::unordered_map<const void*, Slot*> index_;
  Slot* unmatched_;
};

}  // namespace feedback::gateway
