#include "common/core/trace.h"

#include "common/core/crypto.h"

namespace feedback::trace {
namespace {

bool isLowerHex(std::string_view text) {
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

bool allZero(std::string_view text) {
  return text.find_first_not_of('0') == std::string_view::npos;
}

}  // namespace

std::optional<TraceParent> parse(std::string_view h) {
  // 2 + 1 + 32 + 1 + 16 + 1 + 2. A later version may append fields after a '-': its first
  // four are read as version 00's (W3C Trace Context, "Versioning of traceparent").
  if (h.size() < 55 || h[2] != '-' || h[35] != '-' || h[52] != '-') return std::nullopt;
  const auto version = h.substr(0, 2), trace = h.substr(3, 32), span = h.substr(36, 16),
             flags = h.substr(53, 2);
  if (!isLowerHex(version) || version == "ff") return std::nullopt;
  if (version == "00" ? h.size() != 55 : (h.size() > 55 && h[55] != '-')) return std::nullopt;
  if (!isLowerHex(trace) || !isLowerHex(span) || !isLowerHex(flags) || allZero(trace) ||
      allZero(span)) {
    return std::nullopt;
  }
  return TraceParent{std::string(trace), std::string(span),
                     (std::stoi(std::string(flags), nullptr, 16) & 1) != 0};
}

TraceParent start() {
  return {crypto::toHex(crypto::randomBytes(16)), crypto::toHex(crypto::randomBytes(8)), false};
}

TraceParent child(const TraceParent& parent) {
  return {parent.trace_id, crypto::toHex(crypto::randomBytes(8)), parent.sampled};
}

std::string format(const TraceParent& c) {
  return "00-" + c.trace_id + "-" + c.span_id + (c.sampled ? "-01" : "-00");
}

}  // namespace feedback::trace
