#pragma once
// The HTTP/1.1 server: Boost.Beast on IoThreads, each connection living on one loop from
// accept to close (its requests are handled, and answered, on that loop's thread), keep-alive, a
// deadline on every read and write, and limits on header and body size so that a slow or huge
// client cannot hold resources. Only server.cc and websocket_session.* include Beast.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "common/core/errors.h"
#include "common/core/limits.h"
#include "services/gateway/http/message.h"

namespace feedback {
class IoThreads;
}

namespace feedback::gateway {

struct HttpServerOptions {
  std::string address = "0.0.0.0";
  int port = 0;  // 0: any free port
  // Loops of a server that makes its own (the API server is given the gateway's).
  int threads = 1;
  std::size_t body_limit = limits::kMaxJsonBodyBytes;
  std::size_t header_limit = 16 * 1024;
  std::chrono::milliseconds read_timeout{30000};
  std::chrono::milliseconds write_timeout{30000};
  std::size_t max_connections = 20000;
  // While stopping, how long a connection with no request in progress stays open for one that
  // may already be on its way (answered, with Connection: close). Closing it at once would
  // reset such a request, and a proxy cannot resend a POST it has sent.
  std::chrono::milliseconds idle_close_grace{1000};
  // The body limit of an upload route (method, target), or 0 for a route of JSON bodies:
  // uploads take larger bodies than JSON does, and are read with a deadline that follows what
  // arrives (at least 8 KiB/s after the read timeout) under `large_body_budget`.
  std::function<std::size_t(std::string_view, std::string_view)> large_body_limit;
  // The largest limit large_body_limit gives.
  std::size_t largest_body_limit = 0;
  // Bytes of large bodies held at once by all connections; past it a new one is answered 503.
  std::size_t large_body_budget = 256 * 1024 * 1024;
};

// Renders a transport-level error (413, 431, malformed request) in the API's error format.
// `request_id` is the client's X-Request-Id when its headers could be read, else empty.
using TransportErrorResponder = std::function<HttpResponse(ErrorCode, std::string_view request_id)>;

class HttpServer {
 public:
  // On loops of its own, options.threads of them.
  HttpServer(HttpServerOptions options, HttpHandler handler, TransportErrorResponder errors);
  // On `threads`, which run before start() and until after stop().
  HttpServer(IoThreads& threads, HttpServerOptions options, HttpHandler handler,
             TransportErrorResponder errors);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds (and starts loops of its own); throws when the port cannot be bound.
  void start();
  int port() const;
  // Stops accepting and lets every connection finish: one with a request in progress (or one
  // that arrives within idle_close_grace) is answered with Connection: close, an idle one is
  // closed after idle_close_grace. When they are done or `drain` has passed, stops loops of
  // its own, or cuts off what is left on given ones.
  void stop(std::chrono::milliseconds drain);
  std::size_t openConnections() const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace feedback::gateway
