#pragma once
// The gateway's backends: one gRPC channel per service. Each route file makes the stub of its
// own service from its channel, so that it includes only that service's generated header.

#include <grpcpp/channel.h>

#include <memory>

namespace feedback::gateway {

struct Backends {
  std::shared_ptr<grpc::Channel> tokens;
  std::shared_ptr<grpc::Channel> links;
  std::shared_ptr<grpc::Channel> responses;
  std::shared_ptr<grpc::Channel> webhooks;
};

}  // namespace feedback::gateway
