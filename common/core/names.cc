#include "common/core/names.h"

namespace feedback {
namespace {

// Lowercase ASCII letters and digits joined by single `separator`s.
bool isWordsJoinedBy(std::string_view text, char separator, std::size_t limit) {
  if (text.empty() || text.size() > limit) return false;
  if (text.front() == separator || text.back() == separator) return false;
  char previous = 0;
  for (char c : text) {
    bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!word && !(c == separator && previous != separator)) return false;
    previous = c;
  }
  return true;
}

}  // namespace

bool isValidSlug(std::string_view slug) {
  return isWordsJoinedBy(slug, '-', kMaxSlugLength);
}

bool isValidFieldKey(std::string_view key) {
  return isWordsJoinedBy(key, '_', kMaxFieldKeyLength);
}

}  // namespace feedback
