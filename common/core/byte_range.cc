#include "common/core/byte_range.h"

#include <algorithm>
#include <charconv>

#include "common/core/ascii.h"

namespace feedback {
namespace {

constexpr std::string_view kUnit = "bytes=";

// Digits only: from_chars would take a sign.
std::optional<int64_t> position(std::string_view text) {
  if (text.empty() || !allAsciiDigits(text)) return std::nullopt;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<ByteRangeSpec> parseByteRange(std::string_view header) {
  header = trim(header, kHttpWhitespace);
  if (header.size() < kUnit.size() ||
      !equalsIgnoringAsciiCase(header.substr(0, kUnit.size()), kUnit)) {
    return std::nullopt;
  }
  const std::string_view range = trim(header.substr(kUnit.size()), kHttpWhitespace);
  const auto dash = range.find('-');
  if (dash == std::string_view::npos || range.find(',') != std::string_view::npos) {
    return std::nullopt;
  }
  const std::string_view first = range.substr(0, dash), last = range.substr(dash + 1);
  ByteRangeSpec spec;
  if (first.empty()) {
    spec.last = position(last);
    if (!spec.last) return std::nullopt;
    return spec;
  }
  spec.first = position(first);
  if (!spec.first) return std::nullopt;
  if (!last.empty()) {
    spec.last = position(last);
    if (!spec.last || *spec.last < *spec.first) return std::nullopt;
  }
  return spec;
}

std::optional<ByteRange> resolveByteRange(const ByteRangeSpec& spec, int64_t size) {
  if (!spec.first) {
    const int64_t suffix = spec.last.value_or(0);
    if (suffix <= 0 || size <= 0) return std::nullopt;
    const int64_t length = std::min(suffix, size);
    return ByteRange{size - length, length};
  }
  if (*spec.first >= size) return std::nullopt;
  const int64_t last = std::min(spec.last.value_or(size - 1), size - 1);
  return ByteRange{*spec.first, last - *spec.first + 1};
}

}  // namespace feedback
