#pragma once
// Rules for text that is stored. PostgreSQL's text cannot hold U+0000, and a C string stops
// at it: rather than cut such a string where the NUL stands, every service refuses it.

#include <string>
#include <string_view>

#include "common/core/errors.h"

namespace feedback {

inline bool containsNul(std::string_view text) {
  return text.find('\0') != std::string_view::npos;
}

// VALIDATION_ERROR at `path` when `text` contains U+0000.
inline void requireStorableText(std::string_view text, const std::string& path) {
  if (containsNul(text)) {
    throw ApiError(ErrorCode::kValidationError,
                   "'" + path + "' must not contain the character U+0000.",
                   {{path, "must not contain U+0000"}});
  }
}

}  // namespace feedback
