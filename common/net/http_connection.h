#pragma once
// The parts of http_client that hold sockets: one connection, plain or TLS, behind one
// interface, and the pool that keeps connections between requests. Internal to http_client.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <variant>

namespace feedback::net {

using Tcp = boost::asio::ip::tcp;
using OutgoingRequest = boost::beast::http::request<boost::beast::http::string_body>;
using ResponseParser = boost::beast::http::response_parser<boost::beast::http::buffer_body>;

// Every operation's handler runs on the executor the connection was made with; the caller
// keeps the buffer, parser and request alive until it has.
class HttpConnection {
 public:
  using Handler = std::function<void(boost::system::error_code)>;

  // `tls` null: plain HTTP. The context must outlive the connection.
  HttpConnection(boost::asio::any_io_executor executor, boost::asio::ssl::context* tls);

  Tcp::socket& socket();
  // TLS only (plain: completes at once): verifies the peer's chain and that its certificate
  // names `host`; SNI is sent only for names, as RFC 6066 forbids IP literals there.
  void handshake(const std::string& host, bool host_is_name, Handler done);
  void write(OutgoingRequest& request, Handler done);
  void readHeader(boost::beast::flat_buffer& buffer, ResponseParser& parser, Handler done);
  // Reads body bytes until the parser's body buffer is full (ec = need_buffer) or it is done.
  void readBody(boost::beast::flat_buffer& buffer, ResponseParser& parser, Handler done);
  // Cancels pending operations: their handlers see operation_aborted.
  void close();
  // Without blocking: false when the peer has closed the connection or sent something while
  // it was idle, either of which makes it useless for the next request.
  bool stillUsable();

  std::chrono::steady_clock::time_point idle_since;

 private:
  using TlsStream = boost::asio::ssl::stream<Tcp::socket>;
  std::variant<Tcp::socket, TlsStream> stream_;
};

// Idle connections per origin (scheme://host:port). take() and put() run on the client's
// strand; size() and close() may run on any thread, hence the mutex.
class ConnectionPool {
 public:
  ConnectionPool(std::size_t max_per_origin, std::chrono::seconds idle_timeout);

  // The most recently used live connection to `origin`, or null. Drops the expired and dead.
  std::unique_ptr<HttpConnection> take(const std::string& origin);
  // Keeps `connection` unless the pool is closed; the oldest one goes when the origin is full.
  void put(const std::string& origin, std::unique_ptr<HttpConnection> connection);
  std::size_t size() const;
  // Drops every idle connection and refuses those returned later.
  void close();

 private:
  void dropExpired();

  const std::size_t max_per_origin_;
  const std::chrono::seconds idle_timeout_;
  mutable std::mutex mutex_;
  std::map<std::string, std::deque<std::unique_ptr<HttpConnection>>> idle_;
  bool closed_ = false;
};

}  // namespace feedback::net
