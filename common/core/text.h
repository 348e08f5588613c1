#pragma once
// Rules for text that is stored. PostgreSQL's text cannot hold U+0000, and a C string stops
// at it: rather than cut such a string where the NUL stands, every service refuses it.

#include <string>
#include <string_view>

#include "common/core/errors.h"

namespace feedback {

// The length of the well-formed UTF-8 sequence (RFC 3629) that starts at `text[at]`: 1 to 4,
// or 0 when none does (a stray continuation byte, an overlong form, a surrogate, a code point
// past U+10FFFF, or a sequence cut short).
inline std::size_t utf8SequenceLength(std::string_view text, std::size_t at) {
  const auto c = static_cast<unsigned char>(text[at]);
  if (c < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the byte after the first
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    if (c == 0xE0) low = 0xA0;   // overlong
    if (c == 0xED) high = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    if (c == 0xF0) low = 0x90;   // overlong
    if (c == 0xF4) high = 0x8F;  // past U+10FFFF
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[at + k]);
    if (next < (k == 1 ? low : 0x80) || next > (k == 1 ? high : 0xBF)) return 0;
  }
  return length;
}

// Text from outside that is not well-formed UTF-8 cannot be stored (PostgreSQL refuses it),
// sent in a protobuf string or written into a JSON answer.
inline bool isValidUtf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8SequenceLength(text, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

inline bool containsNul(std::string_view text) {
  return text.find('\0') != std::string_view::npos;
}

// VALIDATION_ERROR at `path` when `text` contains U+0000; `code` instead for a field with a
// rule of its own (a slug's pattern, a question type's list), which such text breaks too: the
// field's own code is the one its caller looks for.
inline void requireStorableText(std::string_view text, const std::string& path,
                                ErrorCode code = ErrorCode::kValidationError) {
  if (containsNul(text)) {
    throw ApiError(code, "'" + path + "' must not contain the character U+0000.",
                   {{path, "must not contain U+0000"}});
  }
}

}  // namespace feedback
