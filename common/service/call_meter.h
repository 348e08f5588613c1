#pragma once
// What every RPC a service answers records, unary or streaming: its request id and trace (from
// the caller's metadata), rpc_total{method,code} and the rpc_duration_seconds{method}
// histogram, so that a streaming call shows in /metrics and the logs as a unary one does.

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <string>
#include <string_view>

#include "common/core/counters.h"

namespace feedback::service {

class CallMeter {
 public:
  // Starts the call's clock.
  CallMeter(grpc::CallbackServerContext* context, Counters& counters, std::string_view method);
  const std::string& requestId() const { return request_id_; }
  // The trace the caller's traceparent names; empty when it sent none.
  const std::string& traceId() const { return trace_id_; }
  // Counts the call with the code it ends with and observes its duration; once per call.
  void record(const grpc::Status& status) const;

 private:
  Counters* counters_;
  std::string series_;
  std::string method_;
  std::string request_id_;
  std::string trace_id_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace feedback::service
