#pragma once
// Transport-free HTTP messages: the server converts Beast's types to these, so routing and
// handlers compile and test without sockets or Beast headers.

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace feedback::gateway {

struct HttpRequest {
  std::string method;  // as sent, e.g. "GET"
  std::string target;  // path and query, as sent
  // Names lowercased.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::string remote_address;

  std::string_view path() const {
    auto q = target.find('?');
    return std::string_view(target).substr(0, q);
  }
  std::string_view query() const {
    auto q = target.find('?');
    return q == std::string::npos ? std::string_view() : std::string_view(target).substr(q + 1);
  }
  // Empty when absent. `name` must be lowercase.
  std::string_view header(std::string_view name) const {
    for (const auto& [k, v] : headers) {
      if (k == name) return v;
    }
    return {};
  }
  bool hasHeader(std::string_view name) const {
    for (const auto& h : headers) {
      if (h.first == name) return true;
    }
    return false;
  }
};

struct HttpResponse {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  // Close the connection after this answer.
  bool close = false;

  void setHeader(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
  }
};

// Called exactly once per request, from any thread.
using Respond = std::function<void(HttpResponse)>;
using HttpHandler = std::function<void(HttpRequest, Respond)>;

}  // namespace feedback::gateway
