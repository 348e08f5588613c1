#include "common/core/names.h"

#include "common/core/ascii.h"

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

std::string nameToSlug(std::string_view text, char separator, std::size_t limit) {
  std::string out;
  for (char c : text) {
    const char lower = asciiLower(c);
    if ((lower >= 'a' && lower <= 'z') || (c >= '0' && c <= '9')) {
      out += lower;
    } else if (!out.empty() && out.back() != separator) {
      out += separator;
    }
  }
  if (out.size() > limit) out.resize(limit);
  while (!out.empty() && out.back() == separator) out.pop_back();
  return out;
}

bool isValidSubdomain(std::string_view s) {
  if (s.empty() || s.size() > 63 || s.front() == '-' || s.back() == '-') return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

std::string subdomainOfHost(std::string_view host, std::string_view suffix) {
  if (auto colon = host.rfind(':'); colon != std::string_view::npos) host = host.substr(0, colon);
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  if (host.size() <= suffix.size() + 1 || host.size() > 253) return {};
  const std::string lower = asciiLowercase(host);
  const std::size_t dot = lower.size() - suffix.size() - 1;
  if (lower[dot] != '.' || lower.compare(dot + 1, std::string::npos, suffix) != 0) return {};
  return lower.substr(0, dot);
}

}  // namespace feedback
