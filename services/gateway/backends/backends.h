#pragma once
// The gateway's backends: one gRPC channel per service. Each route file makes the stub of its
// own service from its channel, so that it includes only that service's generated header.

#include <grpcpp/channel.h>

#include <memory>
#include <string>

namespace feedback::gateway {

struct GatewayConfig;

struct Backends {
  std::shared_ptr<grpc::Channel> tokens;
  std::shared_ptr<grpc::Channel> links;
  std::shared_ptr<grpc::Channel> responses;
  std::shared_ptr<grpc::Channel> webhooks;
  // The responses service's media calls, on a connection of their own (grpckit::makeChannel's
  // `bulk`): recordings streamed to slow readers are not buffered here.
  std::shared_ptr<grpc::Channel> responses_media;

  static Backends connect(const GatewayConfig& config);
};

// gateway_backend_available{service}: 1 unless calls to that service fail at once because
// every connection to it is lost (grpckit::available), in the Prometheus text format.
std::string renderBackendsAvailable(const Backends& backends);

}  // namespace feedback::gateway
