#include "common/net/http_exchange.h"

#include <boost/asio/post.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/url/parse.hpp>
#include <cctype>
#include <charconv>
#include <exception>
#include <utility>

#include "common/core/log.h"

namespace asio = boost::asio;
namespace http = boost::beast::http;
namespace urls = boost::urls;
using boost::system::error_code;

namespace feedback::net {
namespace {

constexpr std::size_t kHeaderLimit = 16 * 1024;

bool isHostNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
}

bool isTokenChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool validHeaderValue(std::string_view value) {
  return value.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos;
}

bool validHeaderName(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!isTokenChar(c)) return false;
  }
  return true;
}

// Names that frame the message or manage the connection, which only the client may set.
bool reservedHeaderName(std::string_view name) {
  for (std::string_view reserved : {"host", "content-length", "transfer-encoding", "connection",
                                    "keep-alive", "proxy-connection", "te", "trailer", "upgrade"}) {
    if (boost::beast::iequals(name, reserved)) return true;
  }
  return false;
}

// Boost.URL 1.81 misses some overflows (port 99999 reads as 34463), so the digits are read here.
std::optional<unsigned> portNumber(std::string_view digits) {
  unsigned value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  if (value == 0 || value > 65535) return std::nullopt;
  return value;
}

std::string_view toStd(boost::beast::string_view s) {
  return {s.data(), s.size()};
}

}  // namespace

std::optional<Target> parseTarget(std::string_view url, bool allow_plain_http) {
  auto parsed = urls::parse_absolute_uri(url);
  if (!parsed) return std::nullopt;
  const urls::url_view& u = *parsed;
  Target t;
  if (u.scheme_id() == urls::scheme::https) {
    t.tls = true;
  } else if (u.scheme_id() == urls::scheme::http && allow_plain_http) {
    t.tls = false;
  } else {
    return std::nullopt;
  }
  if (!u.has_authority() || u.has_userinfo()) return std::nullopt;
  switch (u.host_type()) {
    case urls::host_type::name:
      t.host = u.host_name();
      for (char c : t.host) {
        if (!isHostNameChar(c)) return std::nullopt;
      }
      break;
    case urls::host_type::ipv4:
      t.host = u.host_ipv4_address().to_string();
      t.host_is_name = false;
      break;
    case urls::host_type::ipv6:
      t.host = u.host_ipv6_address().to_string();
      t.host_is_name = false;
      break;
    default:
      return std::nullopt;
  }
  if (t.host.empty()) return std::nullopt;
  const bool explicit_port = u.has_port() && !u.port().empty();
  if (explicit_port) {
    auto number = portNumber({u.port().data(), u.port().size()});
    if (!number) return std::nullopt;
    t.port = std::to_string(*number);
  } else {
    t.port = t.tls ? "443" : "80";
  }
  const std::string host =
      t.host_is_name || u.host_type() == urls::host_type::ipv4 ? t.host : "[" + t.host + "]";
  t.host_header = explicit_port ? host + ":" + t.port : host;
  t.request_target = u.encoded_path().empty() ? "/" : std::string(u.encoded_path());
  if (u.has_query()) t.request_target += "?" + std::string(u.encoded_query());
  t.origin = std::string(t.tls ? "https://" : "http://") + host + ":" + t.port;
  return t;
}

HttpExchange::HttpExchange(std::shared_ptr<ClientCore> core, HttpRequest request, Done done,
                           std::chrono::steady_clock::time_point started)
    : core_(std::move(core)),
      request_(std::move(request)),
      done_(std::move(done)),
      started_(started),
      deadline_(core_->strand) {}

template <class... Args>
auto HttpExchange::step(void (HttpExchange::*method)(Args...)) {
  return [self = shared_from_this(), method](Args... args) {
    if (self->finished_) return;
    try {
      ((*self).*method)(std::move(args)...);
    } catch (const std::exception& e) {
      if (!self->finished_) self->fail(std::string("internal: ") + e.what());
    }
  };
}

void HttpExchange::start() {
  try {
    begin();
  } catch (const std::exception& e) {
    if (!finished_) fail(std::string("internal: ") + e.what());
  }
}

void HttpExchange::begin() {
  deadline_.expires_at(started_ + core_->settings.timeout);
  deadline_.async_wait(step(&HttpExchange::onDeadline));
  auto target = parseTarget(request_.url, core_->settings.allow_plain_http);
  if (!target) return fail("invalid_url");
  target_ = std::move(*target);
  if (!buildMessage()) return fail("invalid_header");
  connection_ = core_->pool.take(target_.origin);
  if (!connection_) return resolve();
  result_.reused_connection = true;
  sendRequest();
}

bool HttpExchange::buildMessage() {
  const auto& settings = core_->settings;
  if (!validHeaderValue(settings.user_agent) || !validHeaderValue(request_.content_type)) {
    return false;
  }
  message_.method(http::verb::post);
  message_.target(target_.request_target);
  message_.version(11);
  message_.set(http::field::host, target_.host_header);
  message_.set(http::field::user_agent, settings.user_agent);
  message_.set(http::field::content_type, request_.content_type);
  for (const auto& [name, value] : request_.headers) {
    if (!validHeaderName(name) || !validHeaderValue(value) || reservedHeaderName(name)) {
      return false;
    }
    message_.set(name, value);
  }
  message_.body() = std::move(request_.body);
  message_.prepare_payload();
  return true;
}

void HttpExchange::onDeadline(error_code ec) {
  if (ec) return;
  // Failing now rather than when the pending operation notices the cancellation: a name
  // lookup cannot be interrupted, and the deadline is a promise to the caller.
  fail("timeout");
}

void HttpExchange::resolve() {
  tried_an_address_ = false;
  auto flags = Tcp::resolver::numeric_service;
  if (!target_.host_is_name) flags |= Tcp::resolver::numeric_host;
  core_->resolver.resolve(target_.host, target_.port, flags,
                          [strand = core_->strand, resolved = step(&HttpExchange::onResolved)](
                              error_code ec, NameResolver::Results results) mutable {
                            asio::post(strand, [resolved = std::move(resolved), ec,
                                                results = std::move(results)]() mutable {
                              resolved(ec, std::move(results));
                            });
                          });
}

void HttpExchange::onResolved(error_code ec, NameResolver::Results results) {
  if (failed(ec, "dns")) return;
  endpoints_ = std::move(results);
  next_endpoint_ = endpoints_.begin();
  connectNext();
}

void HttpExchange::connectNext() {
  const auto& allowed = core_->settings.address_allowed;
  while (next_endpoint_ != endpoints_.end()) {
    const Tcp::endpoint endpoint = (next_endpoint_++)->endpoint();
    if (allowed && !allowed(endpoint.address())) continue;
    tried_an_address_ = true;
    connection_ =
        std::make_unique<HttpConnection>(core_->strand, target_.tls ? &core_->tls : nullptr);
    connection_->socket().async_connect(endpoint, step(&HttpExchange::onConnected));
    return;
  }
  if (!tried_an_address_) return fail("refused_address");
  fail("connect: " + connect_error_.message());
}

void HttpExchange::onConnected(error_code ec) {
  if (ec) {
    connect_error_ = ec;
    connectNext();
    return;
  }
  connection_->handshake(target_.host, target_.host_is_name, step(&HttpExchange::onHandshake));
}

void HttpExchange::onHandshake(error_code ec) {
  if (failed(ec, "tls")) return;
  sendRequest();
}

void HttpExchange::sendRequest() {
  connection_->write(message_, step(&HttpExchange::onWritten));
}

void HttpExchange::onWritten(error_code ec) {
  if (retryOnFreshConnection(ec) || failed(ec, "io")) return;
  readHeader();
}

void HttpExchange::readHeader() {
  parser_.emplace();
  parser_->header_limit(kHeaderLimit);
  // The body is counted against settings.body_limit as it comes, not refused up front, so
  // that an oversized answer still yields its status and excerpt.
  parser_->body_limit(boost::none);
  connection_->readHeader(buffer_, *parser_, step(&HttpExchange::onHeader));
}

void HttpExchange::onHeader(error_code ec) {
  if (retryOnFreshConnection(ec) || failed(ec, "io")) return;
  const auto& header = parser_->get();
  const int status = header.result_int();
  if (status >= 100 && status < 200 && status != 101) return readHeader();
  result_.status = status;
  if (auto it = header.find(http::field::retry_after); it != header.end()) {
    result_.retry_after = parseRetryAfter(toStd(it->value()), std::chrono::system_clock::now());
  }
  readBody();
}

void HttpExchange::readBody() {
  if (parser_->is_done()) return complete();
  auto& body = parser_->get().body();
  body.data = chunk_.data();
  body.size = chunk_.size();
  connection_->readBody(buffer_, *parser_, step(&HttpExchange::onBody));
}

void HttpExchange::onBody(error_code ec) {
  if (ec == http::error::need_buffer) ec = {};
  // Many servers end a body delimited by the connection's end without a TLS close_notify;
  // a truncation attack could only shorten an excerpt, so such an end is accepted.
  if (ec == asio::ssl::error::stream_truncated && parser_->need_eof()) parser_->put_eof(ec);
  const std::size_t got = chunk_.size() - parser_->get().body().size;
  const std::size_t room = core_->settings.excerpt_limit - result_.body_excerpt.size();
  result_.body_excerpt.append(chunk_.data(), std::min(got, room));
  body_bytes_ += got;
  if (failed(ec, "io")) return;
  if (!parser_->is_done() && body_bytes_ > core_->settings.body_limit) return finish();
  readBody();
}

void HttpExchange::complete() {
  result_.body_complete = true;
  const bool reusable = result_.status >= 200 && parser_->keep_alive() && buffer_.size() == 0;
  if (reusable) core_->pool.put(target_.origin, std::move(connection_));
  finish();
}

bool HttpExchange::retryOnFreshConnection(error_code ec) {
  // Only a kept-alive connection, and only before any byte of answer: the peer most likely
  // closed it while it was idle, so the request never reached the application.
  if (!ec || !result_.reused_connection) return false;
  if (buffer_.size() > 0 || (parser_ && parser_->got_some())) return false;
  result_.reused_connection = false;
  connection_->close();
  connection_.reset();
  parser_.reset();
  resolve();
  return true;
}

bool HttpExchange::failed(error_code ec, std::string_view kind) {
  if (!ec) return false;
  fail(std::string(kind) + ": " + ec.message());
  return true;
}

void HttpExchange::fail(std::string error) {
  result_.error = std::move(error);
  finish();
}

void HttpExchange::finish() {
  finished_ = true;
  deadline_.cancel();
  if (connection_) connection_->close();
  result_.latency = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started_);
  auto done = std::move(done_);
  try {
    done(std::move(result_));
  } catch (const std::exception& e) {
    log::error("http_client_callback_failed", {{"error", e.what()}});
  }
}

}  // namespace feedback::net
