#include "services/gateway/http/stored_response.h"

#include <charconv>

namespace feedback::gateway {
namespace {

// The text up to the next newline, consumed; nullopt when there is none.
std::optional<std::string_view> line(std::string_view& text) {
  auto end = text.find('\n');
  if (end == std::string_view::npos) return std::nullopt;
  std::string_view out = text.substr(0, end);
  text.remove_prefix(end + 1);
  return out;
}

std::optional<int> number(std::string_view& text) {
  auto digits = line(text);
  int value = 0;
  if (!digits || digits->empty()) return std::nullopt;
  auto [end, error] = std::from_chars(digits->data(), digits->data() + digits->size(), value);
  if (error != std::errc() || end != digits->data() + digits->size() || value < 0) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::string storeResponse(const HttpResponse& response) {
  std::string out = std::to_string(response.status) + '\n';
  out += std::to_string(response.headers.size()) + '\n';
  for (const auto& [name, value] : response.headers) {
    out += name;
    out += '\n';
    out += value;
    out += '\n';
  }
  out += response.body;
  return out;
}

std::optional<HttpResponse> restoreResponse(std::string_view stored) {
  HttpResponse response;
  auto status = number(stored);
  auto count = number(stored);
  if (!status || !count || *status < 100 || *status > 599) return std::nullopt;
  response.status = *status;
  for (int i = 0; i < *count; ++i) {
    auto name = line(stored);
    auto value = name ? line(stored) : std::nullopt;
    if (!value) return std::nullopt;
    response.setHeader(std::string(*name), std::string(*value));
  }
  response.body.assign(stored);
  return response;
}

}  // namespace feedback::gateway
