#pragma once
// The gateway's backends: one gRPC channel per service. Each route file makes the stub of its
// own service from its channel, so that it includes only that service's generated header.

#include <grpcpp/channel.h>

#include <memory>
#include <string>

namespace feedback::gateway {

struct Backends {
  std::shared_ptr<grpc::Channel> tokens;
  std::shared_ptr<grpc::Channel> links;
  std::shared_ptr<grpc::Channel> responses;
  std::shared_ptr<grpc::Channel> webhooks;
};

// gateway_backend_available{service}: 1 unless calls to that service fail at once because
// every connection to it is lost (grpckit::available), in the Prometheus text format.
std::string renderBackendsAvailable(const Backends& backends);

}  // namespace feedback::gateway
