#pragma once
// Process counters, rendered in the Prometheus text format on the admin port.

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

namespace feedback::gateway {

class Metrics {
 public:
  void countResponse(int status);
  std::atomic<uint64_t> key_cache_hits{0};
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
  std::string render(std::size_t open_connections) const;

 private:
  std::array<std::atomic<uint64_t>, 6> by_class_{};  // index: status / 100
};

}  // namespace feedback::gateway
