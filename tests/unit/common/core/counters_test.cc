#include "common/core/counters.h"

#include <catch2/catch.hpp>

using feedback::Counters;

TEST_CASE("counters: histograms render cumulative buckets, sum and count", "[counters]") {
  Counters c;
  c.observe("rpc_duration_seconds", "method=\"GetLink\"", 0.0003);
  c.observe("rpc_duration_seconds", "method=\"GetLink\"", 0.004);
  c.observe("rpc_duration_seconds", "method=\"GetLink\"", 9.0);
  c.observe("rpc_duration_seconds", "method=\"ListLinks\"", 0.02);
  c.increment("rpc_total{method=\"GetLink\",code=\"OK\"}", 3);
  const std::string out = c.render();
  CHECK(out.find("# TYPE rpc_duration_seconds histogram\n") != std::string::npos);
  CHECK(out.find("rpc_duration_seconds_bucket{method=\"GetLink\",le=\"0.0005\"} 1\n") !=
        std::string::npos);
  CHECK(out.find("rpc_duration_seconds_bucket{method=\"GetLink\",le=\"0.005\"} 2\n") !=
        std::string::npos);
  CHECK(out.find("rpc_duration_seconds_bucket{method=\"GetLink\",le=\"5\"} 2\n") !=
        std::string::npos);
  CHECK(out.find("rpc_duration_seconds_bucket{method=\"GetLink\",le=\"+Inf\"} 3\n") !=
        std::string::npos);
  CHECK(out.find("rpc_duration_seconds_count{method=\"GetLink\"} 3\n") != std::string::npos);
  CHECK(out.find("rpc_duration_seconds_sum{method=\"GetLink\"} 9.004300\n") != std::string::npos);
  CHECK(out.find("rpc_duration_seconds_count{method=\"ListLinks\"} 1\n") != std::string::npos);
  CHECK(out.find("rpc_total{method=\"GetLink\",code=\"OK\"} 3\n") != std::string::npos);
  // One TYPE line per histogram name.
  CHECK(out.find("# TYPE rpc_duration_seconds histogram", out.find("ListLinks")) ==
        std::string::npos);
}
