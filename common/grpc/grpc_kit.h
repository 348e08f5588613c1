#pragma once
// The small gRPC kit every process uses: error mapping between ApiError and grpc::Status, and
// channel and server construction with health checking and reflection. Free of PostgreSQL:
// the bridge from a reactor to the worker pool is common/service/pool_reactor.h.

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/core/errors.h"
#include "feedback/common/v1/common.pb.h"

namespace feedback::grpckit {

grpc::Status toStatus(const ApiError& error);
// The ApiError a failed status stands for; transport failures become kServiceUnavailable.
ApiError fromStatus(const grpc::Status& status);
// A failed status as a message, for an RPC that answers several requests each on its own.
feedback::common::v1::RpcStatus toRpcStatus(const grpc::Status& status);
grpc::Status fromRpcStatus(const feedback::common::v1::RpcStatus& status);

// Runs `body` and converts what it throws into a status, logging unexpected exceptions with
// the caller's request id (x-request-id metadata) when there is one.
grpc::Status guarded(const std::function<void()>& body, std::string_view request_id = {});

// The canonical name of a gRPC status code, e.g. "NOT_FOUND".
std::string_view statusName(grpc::StatusCode code);

// The channel of calls to `address`: round robin over its replicas, health-checked, quick to
// reconnect. `bulk`: for long streams of large messages (media reads), a connection of its own
// whose streams' flow-control windows stay at their initial 64 KiB (no BDP probing), so that a
// reader slower than its peer holds no more than that of its stream in this process.
std::shared_ptr<grpc::Channel> makeChannel(const std::string& address, bool bulk = false);
// Readiness of a channel to a peer: true when connected, or idle after having been connected
// (unused channels go idle). Asks an idle channel to connect; may block up to 200 ms, so call
// it from an admin thread, never from an API I/O thread.
class ChannelReadiness {
 public:
  explicit ChannelReadiness(std::shared_ptr<grpc::Channel> channel)
      : channel_(std::move(channel)) {}
  bool ready();

 private:
  std::shared_ptr<grpc::Channel> channel_;
  std::atomic<bool> connected_once_{false};
};

// Whether a call on the channel would be tried now, without blocking: false while every
// connection it had is lost and it waits to reconnect (TRANSIENT_FAILURE), when calls fail
// at once. Idle and connecting channels count as available: a call makes them connect.
bool available(grpc::Channel& channel);

// Calls under way on a server, the health service's watches left out (they last as long as
// their connection): what a drain waits for before it ends the server.
class CallsInFlight {
 public:
  int count() const { return count_.load(); }
  void started() { ++count_; }
  void ended() { --count_; }

 private:
  std::atomic<int> count_{0};
};

// Builds and starts a server on 0.0.0.0:port (0 = any free port, reported in *bound_port)
// with the health service and server reflection enabled.
// With `calls`, counts every call it serves there.
std::unique_ptr<grpc::Server> startServer(const std::vector<grpc::Service*>& services, int port,
                                          int* bound_port, CallsInFlight* calls = nullptr);

// Blocks until SIGTERM or SIGINT (see process::blockTerminationSignals), then leaves gracefully:
// `on_signal` runs (e.g. to make readiness fail), the health service says NOT_SERVING, and
// for `drain_delay` calls are still served while clients move away (makeChannel's channels
// watch that health and stop picking this replica; Kubernetes takes the pod out of its
// Service). Then the calls under way (`calls`, as startServer counted them) have up to
// `drain_seconds` to finish, and the server ends, cutting what is left (the health watches).
void serveUntilSignal(grpc::Server& server, const std::function<void()>& on_signal = nullptr,
                      std::chrono::milliseconds drain_delay = std::chrono::milliseconds(0),
                      const CallsInFlight* calls = nullptr, int drain_seconds = 10);

}  // namespace feedback::grpckit
