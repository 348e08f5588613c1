#include "services/gateway/http/server.h"

#include <algorithm>
#include <array>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <charconv>
#include <deque>
#include <future>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include "common/asio/io_threads.h"
#include "common/core/ascii.h"
#include "common/core/log.h"
#include "services/gateway/http/response_head.h"
#include "services/gateway/http/websocket_session.h"

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
// What follows a chunk's bytes, and the chunk that ends a chunked body (RFC 9112 7.1).
constexpr std::string_view kChunkEnd = "\r\n";
constexpr std::string_view kLastChunk = "0\r\n\r\n";
// An upload must arrive at least this fast on average after its first read deadline: slow
// mobile data (64 kbit/s) keeps it going, a client trickling bytes to hold the upload budget
// does not.
constexpr std::size_t kSlowestUploadBytesPerSecond = 8 * 1024;

class Session;

}  // namespace

// Shared with the connections: one may outlive the server until its loop ends it.
struct HttpServer::Impl : std::enable_shared_from_this<HttpServer::Impl> {
  Impl(IoThreads& t, HttpServerOptions o, HttpHandler h, TransportErrorResponder e)
      : threads(t), options(std::move(o)), handler(std::move(h)), errors(std::move(e)) {
    acceptor.emplace(threads.context(0));
  }

  // The loops the connections live on; owned when none was given.
  std::unique_ptr<IoThreads> own_threads;
  IoThreads& threads;
  HttpServerOptions options;
  HttpHandler handler;
  TransportErrorResponder errors;
  std::optional<tcp::acceptor> acceptor;
  std::size_t next_loop = 0;  // the accepting loop's alone
  bool started = false;
  std::atomic<std::size_t> connections{0};
  // The HTTP connections (not WebSockets), for stop() to reach the idle ones.
  std::mutex sessions_mutex;
  std::unordered_map<const Session*, std::weak_ptr<Session>> sessions;
  std::atomic<std::size_t> large_body_bytes{0};
  std::atomic<bool> accepting{true};
  int bound_port = 0;

  void doAccept();
  void track(const std::shared_ptr<Session>& session);
  void untrack(const Session* session);
  std::size_t trackedSessions();
  std::vector<std::shared_ptr<Session>> openSessions();
};

namespace {

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, HttpServer::Impl& server, std::size_t loop)
      : stream_(std::move(socket)),
        server_(server),
        server_owner_(server.shared_from_this()),
        loop_(loop) {
    ++server_.connections;
    boost::system::error_code ec;
    auto endpoint = stream_.socket().remote_endpoint(ec);
    if (!ec) remote_ = endpoint.address().to_string();
  }
  ~Session() {
    releaseLargeBody();
    server_.untrack(this);
    --server_.connections;
  }

  void start() {
    server_.track(shared_from_this());
    asio::dispatch(stream_.get_executor(),
                   beast::bind_front_handler(&Session::doRead, shared_from_this()));
  }

  // Called on this connection's loop when the server stops: an idle connection gets a short
  // while for a request already on its way, then closes; a busy one closes after its answer
  // (write()). A separate timer: the stream's deadline cannot move under a pending read.
  void closeWhenIdle() {
    if (!waiting_for_request_) return;
    close_timer_.emplace(stream_.get_executor(), server_.options.idle_close_grace);
    close_timer_->async_wait([self = shared_from_this()](beast::error_code ec) {
      if (!ec && self->waiting_for_request_ && !self->parser_->got_some()) self->stream_.cancel();
    });
  }
  asio::any_io_executor executor() { return stream_.get_executor(); }
  // Past the drain: ends the connection whatever it is doing.
  void abort() { close(); }

 private:
  void doRead() {
    head_ = false;
    waiting_for_request_ = true;
    parser_.emplace();
    // The parser checks Content-Length against its limit as it reads the header: the largest
    // any route takes, until the route is known (onHeader).
    parser_->body_limit(std::max(server_.options.body_limit, server_.options.largest_body_limit));
    parser_->header_limit(static_cast<std::uint32_t>(server_.options.header_limit));
    stream_.expires_after(server_.options.read_timeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            beast::bind_front_handler(&Session::onHeader, shared_from_this()));
    // A connection accepted as the server began stopping gets the grace an idle one gets.
    if (!server_.accepting) closeWhenIdle();
  }

  // A body over the usual limit is read only for the few routes that take one (uploads), so
  // the route is looked up only then.
  void onHeader(beast::error_code ec, std::size_t) {
    waiting_for_request_ = false;
    if (ec) return onRead(ec, 0);
    const auto& header = parser_->get();
    const auto length = parser_->content_length();
    // An upload (a route that takes raw bytes) is read whatever its size with a deadline that
    // follows what arrives, and counts against the upload budget; any other body is JSON.
    std::size_t upload_limit = 0;
    if (((length && *length > 0) || parser_->chunked()) && server_.options.large_body_limit) {
      upload_limit = server_.options.large_body_limit(header.method_string(), header.target());
    }
    const std::size_t limit = std::max(server_.options.body_limit, upload_limit);
    if (length && *length > limit) return onRead(http::error::body_limit, 0);
    parser_->body_limit(limit);
    if (upload_limit > 0 && !holdLargeBody(length ? *length : limit)) {
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
  // plus a second per kSlowestUploadBytesPerSecond received, and never more than a read
  // deadline after the last bytes. A client that trickles its body, or stops sending it, is
  // cut off, and the upload budget it held goes to others.
  void readLargeBody() {
    http::async_read_some(stream_, buffer_, *parser_,
                          [self = shared_from_this()](beast::error_code ec, std::size_t bytes) {
                            if (ec || self->parser_->is_done()) return self->onRead(ec, bytes);
                            // What the body holds so far (the handler's count is of bytes the
                            // parser took from its buffer, which a read of the body need not
                            // advance).
                            const std::size_t received = self->parser_->get().body().size();
                            // Never more than a read deadline without a byte: a burst does not buy
                            // a stall.
                            const auto timeout = self->server_.options.read_timeout;
                            self->stream_.expires_at(std::min(
                                self->body_started_ + timeout +
                                    std::chrono::seconds(received / kSlowestUploadBytesPerSecond),
                                std::chrono::steady_clock::now() + timeout));
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
    version_ = message.version() == 10 ? 10 : 11;
    keep_alive_ = message.keep_alive();
    HttpRequest request;
    // HEAD is GET without the body (RFC 9110 9.3.2): routed as GET, answered with its header.
    head_ = message.method() == http::verb::head;
    request.method = head_ ? "GET" : std::string(message.method_string());
    request.head = head_;
    request.target = std::string(message.target());
    request.headers.reserve(8);
    for (const auto& field : message) {
      request.headers.emplace_back(asciiLowercase(field.name_string()), std::string(field.value()));
    }
    request.body = std::move(message.body());
    request.remote_address = remote_;
    request.io_loop = loop_;
    if (websocket::is_upgrade(message)) {
      upgrade_request_ = message;
      // On this connection's loop, before the answer that follows it: at once when called
      // there (the answer may then be written at once too), else queued ahead of it.
      request.accept_websocket = [self = shared_from_this()](WebSocketFactory factory) {
        asio::dispatch(self->stream_.get_executor(),
                       [self, factory = std::move(factory)]() mutable {
                         self->websocket_factory_ = std::move(factory);
                       });
      };
    }
    stream_.expires_never();
    // Answered on this connection's loop: written at once when the answer is made there.
    server_.handler(std::move(request), [self = shared_from_this()](HttpResponse response) {
      asio::dispatch(
          self->stream_.get_executor(),
          [self, response = std::move(response)]() mutable { self->write(std::move(response)); });
    });
  }

  void write(HttpResponse answer) {
    releaseLargeBody();
    if (answer.status == 101 && websocket_factory_) return upgrade();
    upgrade_request_.reset();
    if (answer.stream) return writeStreamed(std::move(answer));
    const bool keep_alive = keep_alive_ && !answer.close && server_.accepting;
    body_ = std::move(answer.body);
    renderHead({version_, answer.status, &answer.headers, body_.size(), keep_alive}, head_text_);
    // Content-Length says what GET would send; nothing follows the header.
    if (head_ || !statusHasBody(answer.status)) body_.clear();
    close_after_write_ = !keep_alive;
    stream_.expires_after(server_.options.write_timeout);
    const std::array<asio::const_buffer, 2> buffers{asio::buffer(head_text_), asio::buffer(body_)};
    asio::async_write(stream_, buffers,
                      beast::bind_front_handler(&Session::onWrite, shared_from_this()));
  }

  // The header with the body's length (or chunked, when unknown), then each piece as the
  // stream gives it.
  void writeStreamed(HttpResponse answer) {
    body_stream_ = std::move(answer.stream);
    chunked_ = answer.stream_length == HttpResponse::kUnknownLength;
    stream_left_ = chunked_ ? std::numeric_limits<int64_t>::max() : answer.stream_length;
    first_piece_timeout_ = answer.first_piece_timeout;
    // HTTP/1.0 has no chunks: the body ends with the connection.
    const bool keep_alive =
        keep_alive_ && !answer.close && server_.accepting && !(chunked_ && version_ == 10);
    renderHead(
        {version_, answer.status, &answer.headers,
         static_cast<uint64_t>(std::max<int64_t>(0, answer.stream_length)), keep_alive, chunked_},
        head_text_);
    close_after_write_ = !keep_alive;
    stream_.expires_after(server_.options.write_timeout);
    asio::async_write(stream_, asio::buffer(head_text_),
                      [self = shared_from_this()](beast::error_code ec, std::size_t) {
                        if (ec || self->head_) {
                          self->endStream();
                          return ec ? self->close() : self->onWrite(ec, 0);
                        }
                        self->nextPiece();
                      });
  }

  // The next piece, waited for no longer than a write may take (the first, as long as the
  // answer allows): a stalled source cuts the body.
  void nextPiece() {
    const auto wait =
        first_piece_timeout_.count() > 0
            ? std::chrono::duration_cast<std::chrono::steady_clock::duration>(first_piece_timeout_)
            : std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                  server_.options.write_timeout);
    first_piece_timeout_ = std::chrono::seconds(0);
    piece_timer_.expires_after(wait);
    piece_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || !self->body_stream_) return;
      self->endStream();
      self->close();
    });
    body_stream_->next([self = shared_from_this()](bool ok, std::string piece) {
      asio::post(self->stream_.get_executor(), [self, ok, piece = std::move(piece)]() mutable {
        self->onPiece(ok, std::move(piece));
      });
    });
  }

  void onPiece(bool ok, std::string piece) {
    piece_timer_.cancel();
    if (!body_stream_) return;  // given up waiting
    // A body shorter or longer than its Content-Length cannot be framed: the connection ends.
    const auto size = static_cast<int64_t>(piece.size());
    // A body of unknown length ends with an empty piece; one of known length, when it is whole.
    if (!ok || (piece.empty() && !chunked_ && stream_left_ != 0) || size > stream_left_) {
      endStream();
      return close();
    }
    if (piece.empty()) {
      endStream();
      if (chunked_ && version_ != 10) return writeLastChunk();
      return onWrite({}, 0);
    }
    stream_left_ -= size;
    piece_ = std::move(piece);
    stream_.expires_after(server_.options.write_timeout);
    if (chunked_ && version_ != 10) {
      chunk_head_ = chunkHead(piece_.size());
      const std::array<asio::const_buffer, 3> buffers{
          asio::buffer(chunk_head_), asio::buffer(piece_), asio::buffer(kChunkEnd)};
      return asio::async_write(stream_, buffers,
                               [self = shared_from_this()](beast::error_code ec, std::size_t) {
                                 if (ec) {
                                   self->endStream();
                                   return self->close();
                                 }
                                 self->nextPiece();
                               });
    }
    asio::async_write(stream_, asio::buffer(piece_),
                      [self = shared_from_this()](beast::error_code ec, std::size_t) {
                        if (ec) {
                          self->endStream();
                          return self->close();
                        }
                        self->nextPiece();
                      });
  }

  // A chunk's size line (RFC 9112 7.1).
  static std::string chunkHead(std::size_t size) {
    char digits[24];
    auto end = std::to_chars(digits, digits + sizeof digits, size, 16).ptr;
    std::string out(digits, end);
    out += "\r\n";
    return out;
  }

  // The chunked body's end: the last chunk, no trailers.
  void writeLastChunk() {
    stream_.expires_after(server_.options.write_timeout);
    asio::async_write(stream_, asio::buffer(kLastChunk),
                      beast::bind_front_handler(&Session::onWrite, shared_from_this()));
  }

  void endStream() {
    if (body_stream_) body_stream_->cancel();
    body_stream_.reset();
    piece_ = {};
  }

  void upgrade() {
    auto session = std::make_shared<WebSocketSession>(
        std::move(stream_),
        std::shared_ptr<std::atomic<std::size_t>>(server_owner_, &server_.connections));
    session->start(std::move(*upgrade_request_), std::move(buffer_), websocket_factory_);
    upgrade_request_.reset();
    websocket_factory_ = {};
  }

  void onWrite(beast::error_code ec, std::size_t) {
    if (ec) return close();
    // A lingering close, as after an early error: closing with bytes of the client's still
    // unread (requests pipelined after a Connection: close, an HTTP/1.0 request) makes the
    // kernel reset the connection, and the client may lose the answer it was sent (found by
    // the gateway_request fuzz target).
    if (draining_ || close_after_write_) return drain();
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
    if (close_timer_) close_timer_->cancel();
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  beast::tcp_stream stream_;
  HttpServer::Impl& server_;
  const std::shared_ptr<HttpServer::Impl> server_owner_;
  const std::size_t loop_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::empty_body> continue_{http::status::continue_, 11};
  // The answer being written: its head (the buffer kept from one answer to the next) and body.
  std::string head_text_;
  std::string body_;
  // A streamed answer's body comes from this, a piece at a time.
  std::shared_ptr<BodyStream> body_stream_;
  std::string piece_;
  int64_t stream_left_ = 0;  // bytes of the body still to come
  bool chunked_ = false;     // the body's length is not known: sent in chunks
  std::string chunk_head_;
  std::chrono::seconds first_piece_timeout_{0};
  asio::steady_timer piece_timer_{stream_.get_executor()};
  std::string remote_;
  unsigned version_ = 11;
  bool keep_alive_ = true;
  bool head_ = false;
  bool close_after_write_ = false;
  bool draining_ = false;
  bool waiting_for_request_ = false;
  std::size_t held_ = 0;  // of the large-body budget
  std::chrono::steady_clock::time_point body_started_;
  std::size_t drained_ = 0;
  std::vector<char> discard_;
  std::optional<asio::steady_timer> close_timer_;
  std::optional<http::request<http::string_body>> upgrade_request_;
  WebSocketFactory websocket_factory_;
};

}  // namespace

void HttpServer::Impl::track(const std::shared_ptr<Session>& session) {
  std::lock_guard lock(sessions_mutex);
  sessions.emplace(session.get(), session);
}

void HttpServer::Impl::untrack(const Session* session) {
  std::lock_guard lock(sessions_mutex);
  sessions.erase(session);
}

std::size_t HttpServer::Impl::trackedSessions() {
  std::lock_guard lock(sessions_mutex);
  return sessions.size();
}

std::vector<std::shared_ptr<Session>> HttpServer::Impl::openSessions() {
  // Taken out of the lock by the caller: the last reference to a session may be one of these,
  // and its destructor takes the lock.
  std::vector<std::shared_ptr<Session>> open;
  std::lock_guard lock(sessions_mutex);
  for (const auto& [key, weak] : sessions) {
    if (auto session = weak.lock()) open.push_back(std::move(session));
  }
  return open;
}

// One acceptor hands the connections to the loops in turn; each then lives on its loop alone.
void HttpServer::Impl::doAccept() {
  const std::size_t loop = next_loop++ % threads.size();
  acceptor->async_accept(threads.context(loop),
                         [this, loop](beast::error_code ec, tcp::socket socket) {
                           // A connection accepted as the server began stopping is still served
                           // (its request may be on its way already); doRead gives it the grace of
                           // an idle one.
                           if (!ec) {
                             if (connections >= options.max_connections) {
                               beast::error_code ignored;
                               socket.close(ignored);
                             } else {
                               socket.set_option(tcp::no_delay(true), ec);
                               std::make_shared<Session>(std::move(socket), *this, loop)->start();
                             }
                           }
                           if (accepting) doAccept();
                         });
}

HttpServer::HttpServer(HttpServerOptions options, HttpHandler handler,
                       TransportErrorResponder errors) {
  auto threads = std::make_unique<IoThreads>(options.threads);
  impl_ =
      std::make_shared<Impl>(*threads, std::move(options), std::move(handler), std::move(errors));
  impl_->own_threads = std::move(threads);
}

HttpServer::HttpServer(IoThreads& threads, HttpServerOptions options, HttpHandler handler,
                       TransportErrorResponder errors)
    : impl_(std::make_shared<Impl>(threads, std::move(options), std::move(handler),
                                   std::move(errors))) {}

HttpServer::~HttpServer() {
  stop(std::chrono::milliseconds(0));
  if (impl_->own_threads) {
    // The loops go before the server: the connections still queued on them end with them, and
    // let go of the server then. The acceptor, of those loops, goes first.
    impl_->acceptor.reset();
    impl_->own_threads.reset();
  }
}

void HttpServer::start() {
  auto& s = *impl_;
  tcp::endpoint endpoint(asio::ip::make_address(s.options.address),
                         static_cast<unsigned short>(s.options.port));
  s.acceptor->open(endpoint.protocol());
  s.acceptor->set_option(asio::socket_base::reuse_address(true));
  s.acceptor->bind(endpoint);
  s.acceptor->listen(asio::socket_base::max_listen_connections);
  s.bound_port = s.acceptor->local_endpoint().port();
  s.started = true;
  asio::post(s.acceptor->get_executor(), [&s] { s.doAccept(); });
  if (s.own_threads) s.own_threads->start();
}

int HttpServer::port() const {
  return impl_->bound_port;
}

std::size_t HttpServer::openConnections() const {
  return impl_->connections;
}

void HttpServer::stop(std::chrono::milliseconds drain) {
  auto& s = *impl_;
  if (!s.started) return;
  s.started = false;
  s.accepting = false;
  // On its loop, where it accepts; directly when no loop runs.
  auto close_acceptor = [&s] {
    beast::error_code ignored;
    s.acceptor->close(ignored);
  };
  if (s.threads.running()) {
    std::promise<void> closed;
    asio::post(s.acceptor->get_executor(), [&close_acceptor, &closed] {
      close_acceptor();
      closed.set_value();
    });
    closed.get_future().wait();
  } else {
    close_acceptor();
  }
  for (auto& session : s.openSessions()) {
    asio::post(session->executor(), [session] { session->closeWhenIdle(); });
  }
  const auto deadline = std::chrono::steady_clock::now() + drain;
  while (s.trackedSessions() > 0 && std::chrono::steady_clock::now() < deadline &&
         s.threads.running()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (s.own_threads) {
    s.own_threads->stop();
    return;
  }
  // The loops run on (they serve other parts): what is left past the drain is cut off.
  for (auto& session : s.openSessions()) {
    asio::post(session->executor(), [session] { session->abort(); });
  }
}

}  // namespace feedback::gateway
