#pragma once
// Labelled counters and gauges rendered in the Prometheus text format, for processes whose
// metrics are not known in advance (e.g. one counter per RPC method and outcome).

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace feedback {

class Counters {
 public:
  // `series` is a metric name with labels, e.g. rpc_total{method="GetLink",code="OK"}.
  void increment(const std::string& series, uint64_t by = 1);
  // A value read when rendering, e.g. a queue's depth.
  void gauge(const std::string& series, std::function<double()> read);
  std::string render() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<std::atomic<uint64_t>>> counters_;
  std::map<std::string, std::function<double()>> gauges_;
};

}  // namespace feedback
