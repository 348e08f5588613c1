#include "common/core/counters.h"

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
  return out;
}

}  // namespace feedback
