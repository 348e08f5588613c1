#include "services/gateway/http/server.h"

#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "common/core/log.h"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace feedback::gateway {
namespace {

// After an early error answer (413) the client may still be sending its body; reading and
// discarding it before closing lets the client finish sending and read the answer instead of
// getting a connection reset.
constexpr std::size_t kMaxDrainBytes = 64 * 1024 * 1024;
constexpr std::chrono::seconds kDrainTimeout{5};
// A live transcription's frames are about 100 ms of 16 kHz PCM (3.2 KB), but other clients
// send seconds at a time; a message larger than this (some 30 s) closes the socket.
constexpr std::size_t kMaxWebSocketMessage = 1024 * 1024;
// Messages waiting for a client that does not read: beyond this the socket is closed.
constexpr std::size_t kMaxWebSocketBacklog = 256;
// An upload must arrive at least this fast on average after its first read deadline: slow
// mobile data (64 kbit/s) keeps it going, a client trickling bytes to hold the upload budget
// does not.
constexpr std::size_t kSlowestUploadBytesPerSecond = 8 * 1024;

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

struct HttpServer::Impl {
  Impl(HttpServerOptions o, HttpHandler h, TransportErrorResponder e)
      : options(std::move(o)),
        handler(std::move(h)),
        errors(std::move(e)),
        work(io.get_executor()),
        acceptor(io) {}

  HttpServerOptions options;
  HttpHandler handler;
  TransportErrorResponder errors;
  asio::io_context io;
  // Keeps the I/O threads running while requests wait on backends with no socket operation
  // pending, notably while draining after the acceptor has closed.
  asio::executor_work_guard<asio::io_context::executor_type> work;
  tcp::acceptor acceptor;
  std::vector<std::thread> threads;
  std::atomic<std::size_t> connections{0};
  std::atomic<std::size_t> in_flight{0};
  std::atomic<std::size_t> large_body_bytes{0};
  std::atomic<bool> accepting{true};
  int bound_port = 0;

  void doAccept();
};

namespace {

// A connection upgraded for a route (HttpRequest::accept_websocket): reads go to the route's
// handler, writes are queued in order.
class WebSocketSession final : public WebSocketPeer,
                               public std::enable_shared_from_this<WebSocketSession> {
 public:
  WebSocketSession(beast::tcp_stream&& stream, HttpServer::Impl& server)
      : ws_(std::move(stream)), server_(server) {
    ++server_.connections;
  }
  ~WebSocketSession() override { --server_.connections; }

  void start(http::request<http::string_body> request, beast::flat_buffer buffer,
             const WebSocketFactory& factory) {
    beast::get_lowest_layer(ws_).expires_never();
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(kMaxWebSocketMessage);
    buffer_ = std::move(buffer);
    handler_ = factory(shared_from_this());
    ws_.async_accept(request, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return self->closed();
      // What the handler sent meanwhile waited for the handshake's answer to go first.
      self->accepted_ = true;
      if (!self->outbox_.empty()) {
        self->doWrite();
      } else if (self->closing_) {
        self->doClose();
      }
      self->doRead();
    });
  }

  void sendText(std::string text) override {
    asio::post(ws_.get_executor(), [self = shared_from_this(), text = std::move(text)]() mutable {
      if (self->done_) return;
      if (self->outbox_.size() >= kMaxWebSocketBacklog) return self->abort();
      self->outbox_.push_back(std::move(text));
      if (self->accepted_ && !self->writing_) self->doWrite();
    });
  }

  void close(std::string reason) override {
    asio::post(ws_.get_executor(), [self = shared_from_this(), reason = std::move(reason)] {
      if (self->done_) return;
      self->closing_ = true;
      self->close_reason_ = reason;
      if (self->accepted_ && !self->writing_) self->doClose();
    });
  }

 private:
  void doRead() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->closed();
      std::string message = beast::buffers_to_string(self->buffer_.data());
      self->buffer_.consume(self->buffer_.size());
      if (self->handler_.on_message)
        self->handler_.on_message(std::move(message), self->ws_.got_binary());
      self->doRead();
    });
  }

  void doWrite() {
    writing_ = true;
    ws_.text(true);
    ws_.async_write(asio::buffer(outbox_.front()),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) {
                      self->writing_ = false;
                      if (ec) return self->closed();
                      self->outbox_.pop_front();
                      if (!self->outbox_.empty()) return self->doWrite();
                      if (self->closing_) self->doClose();
                    });
  }

  void doClose() {
    ws_.async_close(websocket::close_reason(websocket::close_code::normal, close_reason_),
                    [self = shared_from_this()](beast::error_code) { self->closed(); });
  }

  void abort() {
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
    closed();
  }

  // Once: the handler hears of it and is dropped, which ends the cycle between the two.
  void closed() {
    if (done_) return;
    done_ = true;
    auto handler = std::move(handler_);
    handler_ = {};
    if (handler.on_closed) handler.on_closed();
  }

  websocket::stream<beast::tcp_stream> ws_;
  HttpServer::Impl& server_;
  beast::flat_buffer buffer_;
  WebSocketHandler handler_;
  std::deque<std::string> outbox_;
  std::string close_reason_;
  bool accepted_ = false;
  bool writing_ = false;
  bool closing_ = false;
  bool done_ = false;
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, HttpServer::Impl& server)
      : stream_(std::move(socket)), server_(server) {
    ++server_.connections;
    boost::system::error_code ec;
    auto endpoint = stream_.socket().remote_endpoint(ec);
    if (!ec) remote_ = endpoint.address().to_string();
  }
  ~Session() {
    releaseLargeBody();
    if (counted_) --server_.in_flight;
    --server_.connections;
  }

  void start() {
    asio::dispatch(stream_.get_executor(),
                   beast::bind_front_handler(&Session::doRead, shared_from_this()));
  }

 private:
  void doRead() {
    head_ = false;
    parser_.emplace();
    // The parser checks Content-Length against its limit as it reads the header: the largest
    // any route takes, until the route is known (onHeader).
    parser_->body_limit(std::max(server_.options.body_limit, server_.options.largest_body_limit));
    parser_->header_limit(static_cast<std::uint32_t>(server_.options.header_limit));
    stream_.expires_after(server_.options.read_timeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            beast::bind_front_handler(&Session::onHeader, shared_from_this()));
  }

  // A body over the usual limit is read only for the few routes that take one (uploads), so
  // the route is looked up only then.
  void onHeader(beast::error_code ec, std::size_t) {
    if (ec) return onRead(ec, 0);
    const auto& header = parser_->get();
    const auto length = parser_->content_length();
    std::size_t limit = server_.options.body_limit;
    if ((!length || *length > limit) && server_.options.large_body_limit) {
      limit = std::max(limit,
                       server_.options.large_body_limit(header.method_string(), header.target()));
    }
    if (length && *length > limit) return onRead(http::error::body_limit, 0);
    parser_->body_limit(limit);
    if (limit > server_.options.body_limit && !holdLargeBody(length ? *length : limit)) {
      return answerAndDrain(ErrorCode::kServiceUnavailable);
    }
    if (length && *length > 0 && beast::iequals(header[http::field::expect], "100-continue")) {
      // The client waits for this before sending a large body.
      return http::async_write(stream_, continue_,
                               beast::bind_front_handler(&Session::onContinue, shared_from_this()));
    }
    readBody();
  }

  // Counts a large body against the budget all connections share. False when it is spent.
  bool holdLargeBody(std::size_t bytes) {
    const std::size_t before = server_.large_body_bytes.fetch_add(bytes);
    held_ = bytes;
    if (before + bytes > server_.options.large_body_budget) {
      releaseLargeBody();
      return false;
    }
    body_started_ = std::chrono::steady_clock::now();
    body_received_ = 0;
    stream_.expires_after(server_.options.read_timeout);
    return true;
  }

  void releaseLargeBody() {
    server_.large_body_bytes -= held_;
    held_ = 0;
  }

  void onContinue(beast::error_code ec, std::size_t) {
    if (ec) return close();
    readBody();
  }

  void readBody() {
    if (held_ > 0) return readLargeBody();
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&Session::onRead, shared_from_this()));
  }

  // An upload's deadline moves with what arrives, as Apache's MinRate does: the read deadline,
  // plus a second per kSlowestUploadBytesPerSecond received. A client that trickles its body
  // is cut off after the read deadline, and the upload budget it held goes to others.
  void readLargeBody() {
    http::async_read_some(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, std::size_t bytes) {
          if (ec || self->parser_->is_done()) return self->onRead(ec, bytes);
          self->body_received_ += bytes;
          self->stream_.expires_at(
              self->body_started_ + self->server_.options.read_timeout +
              std::chrono::seconds(self->body_received_ / kSlowestUploadBytesPerSecond));
          self->readLargeBody();
        });
  }

  void onRead(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == asio::error::operation_aborted || ec == asio::error::connection_reset) {
      return close();
    }
    if (ec == http::error::body_limit) return answerAndDrain(ErrorCode::kPayloadTooLarge);
    if (ec == http::error::header_limit) return answerAndDrain(ErrorCode::kValidationError, 431);
    if (ec) {
      // Only a request that began arriving gets an answer; a dropped connection does not.
      if (parser_->got_some()) return answerAndDrain(ErrorCode::kValidationError);
      return close();
    }
    auto& message = parser_->get();
    version_ = message.version();
    keep_alive_ = message.keep_alive();
    HttpRequest request;
    // HEAD is GET without the body (RFC 9110 9.3.2): routed as GET, answered with its header.
    head_ = message.method() == http::verb::head;
    request.method = head_ ? "GET" : std::string(message.method_string());
    request.target = std::string(message.target());
    request.headers.reserve(8);
    for (const auto& field : message) {
      request.headers.emplace_back(lowercase(field.name_string()), std::string(field.value()));
    }
    request.body = std::move(message.body());
    request.remote_address = remote_;
    if (websocket::is_upgrade(message)) {
      upgrade_request_ = message;
      // Posted to this connection's strand, before the answer that follows it.
      request.accept_websocket = [self = shared_from_this()](WebSocketFactory factory) {
        asio::post(self->stream_.get_executor(), [self, factory = std::move(factory)]() mutable {
          self->websocket_factory_ = std::move(factory);
        });
      };
    }
    stream_.expires_never();
    // Counted until its answer is written, so that a draining server waits for it.
    ++server_.in_flight;
    counted_ = true;
    server_.handler(std::move(request), [self = shared_from_this()](HttpResponse response) {
      asio::post(self->stream_.get_executor(), [self, response = std::move(response)]() mutable {
        self->write(std::move(response));
      });
    });
  }

  void write(HttpResponse answer) {
    releaseLargeBody();
    if (answer.status == 101 && websocket_factory_) return upgrade();
    upgrade_request_.reset();
    response_ = {};
    response_.version(version_ ? version_ : 11);
    response_.result(static_cast<unsigned>(answer.status));
    for (auto& [name, value] : answer.headers) response_.insert(name, value);
    response_.body() = std::move(answer.body);
    response_.keep_alive(keep_alive_ && !answer.close && server_.accepting);
    response_.prepare_payload();
    // Content-Length says what GET would send; nothing follows the header.
    if (head_) response_.body().clear();
    close_after_write_ = !response_.keep_alive();
    stream_.expires_after(server_.options.write_timeout);
    http::async_write(stream_, response_,
                      beast::bind_front_handler(&Session::onWrite, shared_from_this()));
  }

  void upgrade() {
    if (counted_) {
      counted_ = false;
      --server_.in_flight;
    }
    auto session = std::make_shared<WebSocketSession>(std::move(stream_), server_);
    session->start(std::move(*upgrade_request_), std::move(buffer_), websocket_factory_);
    upgrade_request_.reset();
    websocket_factory_ = {};
  }

  void onWrite(beast::error_code ec, std::size_t) {
    if (counted_) {
      counted_ = false;
      --server_.in_flight;
    }
    if (ec) return close();
    if (draining_) return drain();
    if (close_after_write_) return close();
    doRead();
  }

  void answerAndDrain(ErrorCode code, int status_override = 0) {
    std::string_view request_id;
    // Fields parsed so far are kept even when the header section was refused.
    if (parser_ && parser_->got_some()) request_id = parser_->get()["X-Request-Id"];
    HttpResponse answer = server_.errors(code, request_id);
    if (status_override) answer.status = status_override;
    answer.close = true;
    draining_ = true;
    keep_alive_ = false;
    write(std::move(answer));
  }

  void drain() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(kDrainTimeout);
    discard_.resize(64 * 1024);
    readAndDiscard();
  }

  void readAndDiscard() {
    stream_.async_read_some(asio::buffer(discard_),
                            [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                              self->drained_ += n;
                              if (ec || self->drained_ > kMaxDrainBytes) return self->close();
                              self->readAndDiscard();
                            });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  beast::tcp_stream stream_;
  HttpServer::Impl& server_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::empty_body> continue_{http::status::continue_, 11};
  http::response<http::string_body> response_;
  std::string remote_;
  unsigned version_ = 11;
  bool keep_alive_ = true;
  bool head_ = false;
  bool close_after_write_ = false;
  bool draining_ = false;
  bool counted_ = false;
  std::size_t held_ = 0;  // of the large-body budget
  std::chrono::steady_clock::time_point body_started_;
  std::size_t body_received_ = 0;
  std::size_t drained_ = 0;
  std::vector<char> discard_;
  std::optional<http::request<http::string_body>> upgrade_request_;
  WebSocketFactory websocket_factory_;
};

}  // namespace

void HttpServer::Impl::doAccept() {
  acceptor.async_accept(asio::make_strand(io), [this](beast::error_code ec, tcp::socket socket) {
    if (!accepting) return;
    if (!ec) {
      if (connections >= options.max_connections) {
        beast::error_code ignored;
        socket.close(ignored);
      } else {
        socket.set_option(tcp::no_delay(true), ec);
        std::make_shared<Session>(std::move(socket), *this)->start();
      }
    }
    doAccept();
  });
}

HttpServer::HttpServer(HttpServerOptions options, HttpHandler handler,
                       TransportErrorResponder errors)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(handler), std::move(errors))) {}

HttpServer::~HttpServer() {
  stop(std::chrono::milliseconds(0));
}

void HttpServer::start() {
  auto& s = *impl_;
  tcp::endpoint endpoint(asio::ip::make_address(s.options.address),
                         static_cast<unsigned short>(s.options.port));
  s.acceptor.open(endpoint.protocol());
  s.acceptor.set_option(asio::socket_base::reuse_address(true));
  s.acceptor.bind(endpoint);
  s.acceptor.listen(asio::socket_base::max_listen_connections);
  s.bound_port = s.acceptor.local_endpoint().port();
  s.doAccept();
  for (int i = 0; i < std::max(1, s.options.threads); ++i) {
    s.threads.emplace_back([&s] { s.io.run(); });
  }
}

int HttpServer::port() const {
  return impl_->bound_port;
}

std::size_t HttpServer::openConnections() const {
  return impl_->connections;
}

void HttpServer::post(std::function<void()> task) {
  asio::post(impl_->io, std::move(task));
}

void HttpServer::stop(std::chrono::milliseconds drain) {
  auto& s = *impl_;
  if (s.threads.empty()) return;
  s.accepting = false;
  asio::post(s.io, [&s] {
    beast::error_code ignored;
    s.acceptor.close(ignored);
  });
  auto deadline = std::chrono::steady_clock::now() + drain;
  while (s.in_flight > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  s.io.stop();
  for (auto& t : s.threads) t.join();
  s.threads.clear();
}

}  // namespace feedback::gateway
