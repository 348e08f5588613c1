#include "services/gateway/backends.h"

#include "common/grpc/grpc_kit.h"

namespace feedback::gateway {

std::string renderBackendsAvailable(const Backends& backends) {
  std::string out = "# TYPE gateway_backend_available gauge\n";
  for (const auto& [name, channel] :
       {std::pair{"tokens", backends.tokens}, std::pair{"links", backends.links},
        std::pair{"responses", backends.responses}, std::pair{"webhooks", backends.webhooks}}) {
    out += std::string("gateway_backend_available{service=\"") + name + "\"} " +
           (grpckit::available(*channel) ? "1" : "0") + "\n";
  }
  return out;
}

}  // namespace feedback::gateway
