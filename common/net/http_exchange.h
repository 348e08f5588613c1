#pragma once
// One POST of http_client as a state machine: resolve, connect (skipping refused addresses),
// TLS handshake, write, read the header, read the body, then give the connection back to the
// pool or close it. Internal to http_client; every step runs on the client's strand.

#include <array>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/net/http_client.h"
#include "common/net/http_connection.h"
#include "common/net/name_resolver.h"

namespace feedback::net {

// What every exchange of one client shares. In-flight exchanges keep it alive after the
// client is gone, so that they can end normally.
struct ClientCore {
  // Throws std::runtime_error when settings.ca_bundle cannot be loaded.
  ClientCore(boost::asio::any_io_executor executor, HttpClientSettings settings);

  const HttpClientSettings settings;
  const boost::asio::strand<boost::asio::any_io_executor> strand;
  boost::asio::ssl::context tls;
  ConnectionPool pool;
  NameResolver resolver;
};

// Where a URL says to send the request.
struct Target {
  bool tls = true;
  std::string host;  // a name, or an IP literal without brackets
  bool host_is_name = true;
  std::string port;
  std::string host_header;     // host[:port] as the Host header carries it
  std::string request_target;  // path and query, "/" when the path is empty
  std::string origin;          // scheme://host:port, the pool's key
};

// nullopt unless `url` is an absolute http(s) URL with a host, no user info, a valid port,
// and a scheme the settings allow.
std::optional<Target> parseTarget(std::string_view url, bool allow_plain_http);

class HttpExchange : public std::enable_shared_from_this<HttpExchange> {
 public:
  using Done = std::function<void(HttpResult)>;
  HttpExchange(std::shared_ptr<ClientCore> core, HttpRequest request, Done done,
               std::chrono::steady_clock::time_point started);
  void start();

 private:
  // A completion handler that keeps the exchange alive, ignores completions that come after
  // the result was given, and turns an exception into a failed result.
  template <class... Args>
  auto step(void (HttpExchange::*method)(Args...));

  void begin();
  bool buildMessage();
  void onDeadline(boost::system::error_code ec);
  void resolve();
  void onResolved(boost::system::error_code ec, NameResolver::Results results);
  void connectNext();
  void onConnected(boost::system::error_code ec);
  void onHandshake(boost::system::error_code ec);
  void sendRequest();
  void onWritten(boost::system::error_code ec);
  void readHeader();
  void onHeader(boost::system::error_code ec);
  void readBody();
  void onBody(boost::system::error_code ec);
  void complete();
  bool retryOnFreshConnection(boost::system::error_code ec);
  bool failed(boost::system::error_code ec, std::string_view kind);
  void fail(std::string error);
  void finish();

  std::shared_ptr<ClientCore> core_;
  HttpRequest request_;
  Done done_;
  const std::chrono::steady_clock::time_point started_;
  boost::asio::steady_timer deadline_;
  Target target_;
  OutgoingRequest message_;
  Tcp::resolver::results_type endpoints_;
  Tcp::resolver::results_type::const_iterator next_endpoint_;
  bool tried_an_address_ = false;
  boost::system::error_code connect_error_;
  // Closed but kept until the exchange dies: an operation cancelled on it may still be queued.
  std::unique_ptr<HttpConnection> connection_;
  boost::beast::flat_buffer buffer_;
  std::optional<ResponseParser> parser_;
  std::array<char, 8192> chunk_;
  std::size_t body_bytes_ = 0;
  HttpResult result_;
  bool finished_ = false;
};

}  // namespace feedback::net
