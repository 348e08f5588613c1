#include "services/gateway/route_metrics.h"

#include <catch2/catch.hpp>

using feedback::gateway::RouteMetrics;
using namespace std::chrono_literals;

TEST_CASE("route metrics: requests by route and class, durations in buckets", "[metrics]") {
  RouteMetrics metrics;
  int links = 0, link = 0;
  metrics.add(&links, "/v1/links/", "GET");
  metrics.add(&link, "/v1/links/{uuid}/", "GET");
  metrics.observe(&links, 200, 300us);
  metrics.observe(&links, 200, 3ms);
  metrics.observe(&links, 429, 700ms);
  metrics.observe(nullptr, 404, 50us);
  const std::string out = metrics.render();
  CHECK(
      out.find(
          "gateway_route_requests_total{route=\"/v1/links/\",method=\"GET\",class=\"2xx\"} 2\n") !=
      std::string::npos);
  CHECK(
      out.find(
          "gateway_route_requests_total{route=\"/v1/links/\",method=\"GET\",class=\"4xx\"} 1\n") !=
      std::string::npos);
  CHECK(out.find(
            "gateway_route_requests_total{route=\"unmatched\",method=\"any\",class=\"4xx\"} 1\n") !=
        std::string::npos);
  // Cumulative buckets: 300 us in le=0.0005, 3 ms by le=0.005, 700 ms by le=1.
  CHECK(out.find("route=\"/v1/links/\",method=\"GET\",le=\"0.0005\"} 1\n") != std::string::npos);
  CHECK(out.find("route=\"/v1/links/\",method=\"GET\",le=\"0.005\"} 2\n") != std::string::npos);
  CHECK(out.find("route=\"/v1/links/\",method=\"GET\",le=\"0.5\"} 2\n") != std::string::npos);
  CHECK(out.find("route=\"/v1/links/\",method=\"GET\",le=\"1\"} 3\n") != std::string::npos);
  CHECK(out.find("route=\"/v1/links/\",method=\"GET\",le=\"+Inf\"} 3\n") != std::string::npos);
  CHECK(out.find("gateway_route_duration_seconds_count{route=\"/v1/links/\",method=\"GET\"} 3\n") !=
        std::string::npos);
  // A route nobody asked for shows nothing.
  CHECK(out.find("/v1/links/{uuid}/") == std::string::npos);
}
