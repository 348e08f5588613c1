#pragma once
// Labelled counters and gauges rendered in the Prometheus text format, for processes whose
// metrics are not known in advance (e.g. one counter per RPC method and outcome).

#include <array>
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
  // The gauge is no longer rendered (a workspace's, say, once it is gone).
  void removeGauge(const std::string& series);
  // One observation, in seconds, of the histogram `name` with `labels` (e.g.
  // method="GetLink"): rendered as <name>_bucket{...,le}, _sum and _count.
  void observe(const std::string& name, const std::string& labels, double seconds);

  // Upper bounds of every latency histogram's buckets, in seconds (+Inf besides): the
  // services' and the gateway's routes' (RouteMetrics), so that dashboards compare them.
  static constexpr std::array<double, 13> kBuckets = {
      0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5};
  std::string render() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<std::atomic<uint64_t>>> counters_;
  std::map<std::string, std::function<double()>> gauges_;
  struct Histogram {
    std::array<uint64_t, kBuckets.size() + 1> buckets{};  // not cumulative
    double sum = 0;
  };
  std::map<std::pair<std::string, std::string>, Histogram> histograms_;
};

}  // namespace feedback
