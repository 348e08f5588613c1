#include "services/gateway/route_metrics.h"

#include <algorithm>
#include <cstdio>

namespace feedback::gateway {
namespace {

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", s);
  return text;
}

}  // namespace

RouteMetrics::RouteMetrics() {
  slots_.push_back(std::make_unique<Slot>());
  unmatched_ = slots_.back().get();
  unmatched_->pattern = "unmatched";
  unmatched_->method = "any";
}

void RouteMetrics::add(const void* route, std::string pattern, std::string method) {
  slots_.push_back(std::make_unique<Slot>());
  Slot* slot = slots_.back().get();
  slot->pattern = std::move(pattern);
  slot->method = std::move(method);
  index_[route] = slot;
}

void RouteMetrics::observe(const void* route, int status, std::chrono::nanoseconds took) {
  auto it = route ? index_.find(route) : index_.end();
  Slot& slot = it == index_.end() ? *unmatched_ : *it->second;
  slot.by_class[static_cast<std::size_t>(std::clamp(status / 100, 0, 5))].fetch_add(
      1, std::memory_order_relaxed);
  const double s = std::chrono::duration<double>(took).count();
  const auto bucket = static_cast<std::size_t>(
      std::lower_bound(kBuckets.begin(), kBuckets.end(), s) - kBuckets.begin());
  slot.buckets[bucket].fetch_add(1, std::memory_order_relaxed);
  slot.sum_us.fetch_add(
      static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(took).count()),
      std::memory_order_relaxed);
}

std::string RouteMetrics::render() const {
  std::string out = "# TYPE gateway_route_requests_total counter\n";
  for (const auto& slot : slots_) {
    const std::string labels = "route=\"" + slot->pattern + "\",method=\"" + slot->method + "\"";
    for (int i = 1; i <= 5; ++i) {
      const auto n = slot->by_class[static_cast<std::size_t>(i)].load();
      if (n == 0) continue;
      out += "gateway_route_requests_total{" + labels + ",class=\"" + std::to_string(i) + "xx\"} " +
             std::to_string(n) + "\n";
    }
  }
  out += "# TYPE gateway_route_duration_seconds histogram\n";
  for (const auto& slot : slots_) {
    uint64_t cumulative = 0;
    for (const auto& b : slot->buckets) cumulative += b.load();
    if (cumulative == 0) continue;
    const std::string labels = "route=\"" + slot->pattern + "\",method=\"" + slot->method + "\"";
    uint64_t running = 0;
    for (std::size_t i = 0; i < slot->buckets.size(); ++i) {
      running += slot->buckets[i].load();
      const std::string le = i < kBuckets.size() ? seconds(kBuckets[i]) : "+Inf";
      out += "gateway_route_duration_seconds_bucket{" + labels + ",le=\"" + le + "\"} " +
             std::to_string(running) + "\n";
    }
    // Microseconds, whatever the total: a sum that grows must not lose its small steps.
    char sum[40];
    std::snprintf(sum, sizeof sum, "%.6f", static_cast<double>(slot->sum_us.load()) / 1e6);
    out += "gateway_route_duration_seconds_sum{" + labels + "} " + sum + "\n";
    out += "gateway_route_duration_seconds_count{" + labels + "} " + std::to_string(running) + "\n";
  }
  return out;
}

}  // namespace feedback::gateway
