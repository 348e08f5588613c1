#pragma once
// The admin port: /healthz (the process runs), /readyz (its backends are reachable and it is
// not draining) and /metrics (Prometheus text).

#include <functional>

#include "services/gateway/http/message.h"
#include "services/gateway/metrics.h"

namespace feedback::gateway {

class AdminEndpoints {
 public:
  AdminEndpoints(const Metrics& metrics, std::function<std::size_t()> open_connections,
                 std::function<bool()> ready)
      : metrics_(metrics),
        open_connections_(std::move(open_connections)),
        ready_(std::move(ready)) {}

  HttpResponse handle(const HttpRequest& request) const;

 private:
  const Metrics& metrics_;
  std::function<std::size_t()> open_connections_;
  std::function<bool()> ready_;
};

}  // namespace feedback::gateway
