#pragma once
// Range requests of stored media (RFC 9110 section 14): the one byte range of a `Range`
// header, parsed where the request enters, and resolved against the content's size where the
// content is. Several ranges, other units or a malformed header are not refused: the whole
// content is served instead, as the RFC allows.

#include <cstdint>
#include <optional>
#include <string_view>

namespace feedback {

// "bytes=first-last", "bytes=first-" (no last) or "bytes=-suffix" (no first; last is the
// suffix's length).
struct ByteRangeSpec {
  std::optional<int64_t> first;
  std::optional<int64_t> last;
};

// nullopt when the header asks for no single byte range that can be honoured.
std::optional<ByteRangeSpec> parseByteRange(std::string_view header);

struct ByteRange {
  int64_t first = 0;
  int64_t length = 0;
};

// The bytes `spec` names in content of `size` bytes, clipped to it; nullopt when it names
// none (416 Range Not Satisfiable).
std::optional<ByteRange> resolveByteRange(const ByteRangeSpec& spec, int64_t size);

}  // namespace feedback
