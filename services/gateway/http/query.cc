#include "services/gateway/http/query.h"

#include "common/core/errors.h"
#include "common/core/text.h"

namespace feedback::gateway {
namespace {

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

template <class Visit>
void eachPair(std::string_view raw, Visit visit) {
  while (!raw.empty()) {
    auto amp = raw.find('&');
    std::string_view piece = raw.substr(0, amp);
    raw = amp == std::string_view::npos ? std::string_view() : raw.substr(amp + 1);
    if (piece.empty()) continue;
    auto eq = piece.find('=');
    visit(piece, piece.substr(0, eq),
          eq == std::string_view::npos ? std::string_view() : piece.substr(eq + 1));
  }
}

}  // namespace

std::string percentDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%' && i + 2 < text.size() && hexValue(text[i + 1]) >= 0 &&
               hexValue(text[i + 2]) >= 0) {
      out += static_cast<char>(hexValue(text[i + 1]) * 16 + hexValue(text[i + 2]));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

Query::Query(std::string_view raw) : raw_(raw) {
  eachPair(raw, [this](std::string_view, std::string_view name, std::string_view value) {
    pairs_.emplace_back(percentDecode(name), percentDecode(value));
  });
}

std::optional<std::string> Query::bytes(std::string_view name) const {
  std::optional<std::string> found;
  for (const auto& [k, v] : pairs_) {
    if (k == name) found = v;
  }
  return found;
}

std::optional<std::string> Query::get(std::string_view name) const {
  auto found = bytes(name);
  if (found && !isValidUtf8(*found)) {
    throw ApiError(ErrorCode::kValidationError,
                   "The query parameter '" + std::string(name) + "' must be UTF-8 text.",
                   {{std::string(name), "must be percent-encoded UTF-8"}});
  }
  return found;
}

std::string Query::with(std::string_view name, std::string_view value) const {
  std::string out;
  eachPair(raw_, [&](std::string_view piece, std::string_view raw_name, std::string_view) {
    if (percentDecode(raw_name) == name) return;
    if (!out.empty()) out += '&';
    out += piece;
  });
  if (!out.empty()) out += '&';
  out += name;
  out += '=';
  out += value;
  return out;
}

}  // namespace feedback::gateway
