#include "common/net/http_connection.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/socket.h>

#include <boost/asio/post.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <cerrno>

namespace asio = boost::asio;
namespace http = boost::beast::http;

namespace feedback::net {

HttpConnection::HttpConnection(asio::any_io_executor executor, asio::ssl::context* tls)
    : stream_(tls ? decltype(stream_)(std::in_place_type<TlsStream>, executor, *tls)
                  : decltype(stream_)(std::in_place_type<Tcp::socket>, executor)) {}

Tcp::socket& HttpConnection::socket() {
  if (auto* tls = std::get_if<TlsStream>(&stream_)) return tls->next_layer();
  return std::get<Tcp::socket>(stream_);
}

void HttpConnection::handshake(const std::string& host, bool host_is_name, Handler done) {
  auto* tls = std::get_if<TlsStream>(&stream_);
  boost::system::error_code ec;
  if (tls && host_is_name && !SSL_set_tlsext_host_name(tls->native_handle(), host.c_str())) {
    ec.assign(static_cast<int>(ERR_get_error()), asio::error::get_ssl_category());
  }
  if (tls && !ec) tls->set_verify_mode(asio::ssl::verify_peer, ec);
  if (tls && !ec) tls->set_verify_callback(asio::ssl::host_name_verification(host), ec);
  if (!tls || ec) {
    asio::post(socket().get_executor(), [done = std::move(done), ec] { done(ec); });
    return;
  }
  tls->async_handshake(asio::ssl::stream_base::client, std::move(done));
}

void HttpConnection::write(OutgoingRequest& request, Handler done) {
  std::visit(
      [&](auto& stream) {
        http::async_write(
            stream, request,
            [done = std::move(done)](boost::system::error_code ec, std::size_t) { done(ec); });
      },
      stream_);
}

void HttpConnection::readHeader(boost::beast::flat_buffer& buffer, ResponseParser& parser,
                                Handler done) {
  std::visit(
      [&](auto& stream) {
        http::async_read_header(
            stream, buffer, parser,
            [done = std::move(done)](boost::system::error_code ec, std::size_t) { done(ec); });
      },
      stream_);
}

void HttpConnection::readBody(boost::beast::flat_buffer& buffer, ResponseParser& parser,
                              Handler done) {
  std::visit(
      [&](auto& stream) {
        http::async_read(
            stream, buffer, parser,
            [done = std::move(done)](boost::system::error_code ec, std::size_t) { done(ec); });
      },
      stream_);
}

void HttpConnection::close() {
  // A client has nothing to learn from a failed close; the descriptor is released either way.
  boost::system::error_code ignored;
  socket().close(ignored);
}

bool HttpConnection::stillUsable() {
  auto& s = socket();
  if (!s.is_open()) return false;
  char byte;
  ssize_t n = ::recv(s.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

ConnectionPool::ConnectionPool(std::size_t max_per_origin, std::chrono::seconds idle_timeout)
    : max_per_origin_(max_per_origin), idle_timeout_(idle_timeout) {}

std::unique_ptr<HttpConnection> ConnectionPool::take(const std::string& origin) {
  std::lock_guard lock(mutex_);
  dropExpired();
  auto it = idle_.find(origin);
  if (it == idle_.end()) return nullptr;
  std::unique_ptr<HttpConnection> found;
  while (!found && !it->second.empty()) {
    found = std::move(it->second.back());
    it->second.pop_back();
    if (!found->stillUsable()) found.reset();
  }
  if (it->second.empty()) idle_.erase(it);
  return found;
}

void ConnectionPool::put(const std::string& origin, std::unique_ptr<HttpConnection> connection) {
  std::lock_guard lock(mutex_);
  if (closed_ || max_per_origin_ == 0) return;
  connection->idle_since = std::chrono::steady_clock::now();
  auto& list = idle_[origin];
  list.push_back(std::move(connection));
  while (list.size() > max_per_origin_) list.pop_front();
  // Origins that are never asked for again would otherwise keep their sockets for ever.
  dropExpired();
}

std::size_t ConnectionPool::size() const {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (const auto& [origin, list] : idle_) n += list.size();
  return n;
}

void ConnectionPool::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  idle_.clear();
}

void ConnectionPool::dropExpired() {
  const auto oldest = std::chrono::steady_clock::now() - idle_timeout_;
  for (auto it = idle_.begin(); it != idle_.end();) {
    auto& list = it->second;
    while (!list.empty() && list.front()->idle_since <= oldest) list.pop_front();
    it = list.empty() ? idle_.erase(it) : std::next(it);
  }
}

}  // namespace feedback::net
