#pragma once
// The admin port: /healthz (the process runs), /readyz (its backends are reachable and it is
// not draining) and /metrics (Prometheus text).

#include <functional>

#include "services/gateway/http/message.h"
#include "services/gateway/metrics.h"

namespace feedback::gateway {

class AdminEndpoints {
 public:
  // `more_metrics` renders series the Metrics object does not hold (e.g. backend channels);
  // `route_table` is the JSON of GET /routes (GatewayRoutes::describe), empty for none.
  AdminEndpoints(const Metrics& metrics, std::function<std::size_t()> open_connections,
                 std::function<bool()> ready, std::function<std::string()> more_metrics = nullptr,
                 std::string route_table = {})
      : metrics_(metrics),
        open_connections_(std::move(open_connections)),
        ready_(std::move(ready)),
        more_metrics_(std::move(more_metrics)),
        route_table_(std::move(route_table)) {}

  HttpResponse handle(const HttpRequest& request) const;

 private:
  const Metrics& metrics_;
  std::function<std::size_t()> open_connections_;
  std::function<bool()> ready_;
  std::function<std::string()> more_metrics_;
  const std::string route_table_;
};

}  // namespace feedback::gateway
