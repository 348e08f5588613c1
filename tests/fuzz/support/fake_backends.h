#pragma once
// Every service the gateway calls, inside the fuzz target's process: a gRPC server on a loopback
// port whose one generic handler takes any method of any service. Each message the gateway sends
// must parse as the method's request type (a request a service could not read is a bug of the
// gateway's mapping). The intake's link lookup (GetLinkBySlug) answers a link with a question
// of every type, live transcription and speech on, so that the public routes go as far as a
// real link lets them; a live transcription is read to its end and finished; every other call
// answers NOT_FOUND.

#include <atomic>
#include <memory>

#include "services/gateway/backends/backends.h"

namespace grpc {
class Server;
}

namespace feedback::fuzz {

class FakeBackends {
 public:
  // The slug and field keys of the intake's link (each question's key is its type's name).
  static constexpr const char* kSlug = "fuzz";

  FakeBackends();
  ~FakeBackends();
  FakeBackends(const FakeBackends&) = delete;
  FakeBackends& operator=(const FakeBackends&) = delete;

  const gateway::Backends& backends() const { return backends_; }
  // Messages received so far, all methods together.
  uint64_t messages() const { return messages_; }

  class Generic;

 private:
  std::unique_ptr<Generic> generic_;
  std::unique_ptr<grpc::Server> server_;
  gateway::Backends backends_;
  std::atomic<uint64_t> messages_{0};
};

}  // namespace feedback::fuzz
