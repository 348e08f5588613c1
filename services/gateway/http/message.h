#pragma once
// Transport-free HTTP messages: the server converts Beast's types to these, so routing and
// handlers compile and test without sockets or Beast headers.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace feedback::gateway {

// A WebSocket the server accepted for a route. Safe to use from any thread.
class WebSocketPeer {
 public:
  virtual ~WebSocketPeer() = default;
  virtual void sendText(std::string text) = 0;
  // A normal closure once what was sent has gone.
  virtual void close(std::string reason) = 0;
};

// What a route does with its WebSocket's messages; called on the connection's thread, one at
// a time.
struct WebSocketHandler {
  std::function<void(std::string message, bool binary)> on_message;
  // The socket is gone (closed by either side, or failed); nothing is called after this.
  std::function<void()> on_closed;
};

using WebSocketFactory = std::function<WebSocketHandler(std::shared_ptr<WebSocketPeer>)>;
// Set on requests that ask to upgrade to a WebSocket: the route calls it with the factory of
// its handler, then answers 101; any other answer refuses the upgrade.
using AcceptWebSocket = std::function<void(WebSocketFactory)>;

struct HttpRequest {
  std::string method;  // as sent, e.g. "GET" (HEAD is routed as GET: `head` says so)
  bool head = false;
  std::string target;  // path and query, as sent
  // Names lowercased.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::string remote_address;
  // The server loop (IoThreads) its connection lives on: the one its answer is written from.
  std::size_t io_loop = 0;
  AcceptWebSocket accept_websocket;

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

// A body sent as it comes (a stored recording streamed from its service), so that neither the
// gateway nor the service holds the whole of it. The server asks for one piece at a time, the
// next only once the previous one is written to the socket.
class BodyStream {
 public:
  virtual ~BodyStream() = default;
  // `got` is called exactly once, from any thread: ok with the next piece (empty: the body is
  // complete), or not ok when the body cannot be completed (the connection is then closed,
  // which tells the client its body was cut).
  using Got = std::function<void(bool ok, std::string piece)>;
  virtual void next(Got got) = 0;
  // No more pieces are wanted: the body ended, the client left, or it was not sent (HEAD).
  // May be called more than once.
  virtual void cancel() = 0;
};

struct HttpResponse {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  // When set, the body comes from it instead, `stream_length` bytes long (Content-Length), or
  // of a length not known beforehand (kUnknownLength: sent in chunks).
  static constexpr int64_t kUnknownLength = -1;
  std::shared_ptr<BodyStream> stream = {};
  int64_t stream_length = 0;
  // How long the stream's first piece may take (a file made before it is sent); zero: as long
  // as a write may.
  std::chrono::seconds first_piece_timeout{0};
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
