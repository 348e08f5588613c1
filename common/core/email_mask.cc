#include "common/core/email_mask.h"

namespace feedback {
namespace {

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool looksLikeEmail(std::string_view word) {
  const auto at = word.find('@');
  return at != std::string_view::npos && at > 0 && word.find('.', at + 2) != std::string_view::npos;
}

}  // namespace

std::string maskEmails(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (isSpace(text[i])) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && !isSpace(text[end])) ++end;
    const std::string_view word = text.substr(i, end - i);
    out += looksLikeEmail(word) ? std::string_view("[email]") : word;
    i = end;
  }
  return out;
}

}  // namespace feedback
