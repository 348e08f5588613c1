#pragma once
// W3C Trace Context (https://www.w3.org/TR/trace-context/): the `traceparent` a request
// arrives with, or a new trace, carried to every service a request reaches (gRPC metadata) and
// into every log line written on its behalf (log::TraceScope).

#include <optional>
#include <string>
#include <string_view>

namespace feedback::trace {

struct TraceParent {
  std::string trace_id;  // 32 lowercase hex digits, not all zero
  std::string span_id;   // 16 lowercase hex digits, not all zero
  bool sampled = false;
};

// Version 00's form "00-<trace_id>-<span_id>-<flags>"; nullopt when `header` is not one
// (a malformed header starts a new trace, as the specification says).
std::optional<TraceParent> parse(std::string_view header);
// A new trace with a new span, not sampled.
TraceParent start();
// The same trace, as seen from a new span (this hop's).
TraceParent child(const TraceParent& parent);
std::string format(const TraceParent& context);

}  // namespace feedback::trace
