#include "common/core/counters.h"

#include <algorithm>
#include <cstdio>

namespace feedback {
namespace {

std::string nameOf(const std::string& series) {
  return series.substr(0, series.find('{'));
}

}  // namespace

void Counters::increment(const std::string& series, uint64_t by) {
  std::lock_guard lock(mutex_);
  auto& counter = counters_[series];
  if (!counter) counter = std::make_unique<std::atomic<uint64_t>>(0);
  *counter += by;
}

void Counters::gauge(const std::string& series, std::function<double()> read) {
  std::lock_guard lock(mutex_);
  gauges_[series] = std::move(read);
}

void Counters::removeGauge(const std::string& series) {
  std::lock_guard lock(mutex_);
  gauges_.erase(series);
}

void Counters::observe(const std::string& name, const std::string& labels, double seconds) {
  const auto bucket = static_cast<std::size_t>(
      std::lower_bound(kBuckets.begin(), kBuckets.end(), seconds) - kBuckets.begin());
  std::lock_guard lock(mutex_);
  auto& h = histograms_[{name, labels}];
  ++h.buckets[bucket];
  h.sum += seconds;
}

std::string Counters::render() const {
  std::lock_guard lock(mutex_);
  std::string out;
  std::string last_name;
  for (const auto& [series, value] : counters_) {
    if (nameOf(series) != last_name) {
      last_name = nameOf(series);
      out += "# TYPE " + last_name + " counter\n";
    }
    out += series + " " + std::to_string(value->load()) + "\n";
  }
  last_name.clear();
  for (const auto& [series, read] : gauges_) {
    if (nameOf(series) != last_name) {
      last_name = nameOf(series);
      out += "# TYPE " + last_name + " gauge\n";
    }
    char number[64];
    std::snprintf(number, sizeof number, "%g", read());
    out += series + " " + number + "\n";
  }
  last_name.clear();
  for (const auto& [key, h] : histograms_) {
    const auto& [name, labels] = key;
    if (name != last_name) {
      last_name = name;
      out += "# TYPE " + name + " histogram\n";
    }
    uint64_t running = 0;
    char number[64];
    for (std::size_t i = 0; i < h.buckets.size(); ++i) {
      running += h.buckets[i];
      if (i < kBuckets.size()) {
        std::snprintf(number, sizeof number, "%g", kBuckets[i]);
      } else {
        std::snprintf(number, sizeof number, "+Inf");
      }
      out +=
          name + "_bucket{" + labels + ",le=\"" + number + "\"} " + std::to_string(running) + "\n";
    }
    std::snprintf(number, sizeof number, "%.6f", h.sum);
    out += name + "_sum{" + labels + "} " + number + "\n";
    out += name + "_count{" + labels + "} " + std::to_string(running) + "\n";
  }
  return out;
}

}  // namespace feedback
