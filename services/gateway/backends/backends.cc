#include "services/gateway/backends/backends.h"

#include "common/grpc/grpc_kit.h"
#include "services/gateway/gateway_config.h"

namespace feedback::gateway {

Backends Backends::connect(const GatewayConfig& config) {
  return {grpckit::makeChannel(config.tokens), grpckit::makeChannel(config.links),
          grpckit::makeChannel(config.responses), grpckit::makeChannel(config.webhooks),
          grpckit::makeChannel(config.responses, true)};
}

std::string renderBackendsAvailable(const Backends& backends) {
  std::string out = "# TYPE gateway_backend_available gauge\n";
  for (const auto& [name, channel] :
       {std::pair{"tokens", backends.tokens}, std::pair{"links", backends.links},
        std::pair{"responses", backends.responses}, std::pair{"webhooks", backends.webhooks},
        std::pair{"responses_media", backends.responses_media}}) {
    out += std::string("gateway_backend_available{service=\"") + name + "\"} " +
           (grpckit::available(*channel) ? "1" : "0") + "\n";
  }
  return out;
}

}  // namespace feedback::gateway
