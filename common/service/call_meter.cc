#include "common/service/call_meter.h"

#include <algorithm>

#include "common/core/trace.h"
#include "common/grpc/grpc_kit.h"

namespace feedback::service {

CallMeter::CallMeter(grpc::CallbackServerContext* context, Counters& counters,
                     std::string_view method)
    : counters_(&counters),
      series_("rpc_total{method=\"" + std::string(method) + "\",code=\""),
      method_("method=\"" + std::string(method) + "\""),
      started_(std::chrono::steady_clock::now()) {
  const auto& metadata = context->client_metadata();
  if (auto it = metadata.find("x-request-id"); it != metadata.end()) {
    request_id_.assign(it->second.data(), std::min<std::size_t>(it->second.size(), 128));
  }
  if (auto it = metadata.find("traceparent"); it != metadata.end()) {
    if (auto parent = trace::parse(std::string_view(it->second.data(), it->second.size()))) {
      trace_id_ = parent->trace_id;
    }
  }
}

void CallMeter::record(const grpc::Status& status) const {
  counters_->increment(series_ + std::string(grpckit::statusName(status.error_code())) + "\"}");
  counters_->observe(
      "rpc_duration_seconds", method_,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count());
}

}  // namespace feedback::service
