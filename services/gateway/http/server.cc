#include "services/gateway/http/server.h"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <optional>
#include <thread>
#include <vector>

#include "common/core/log.h"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace feedback::gateway {
namespace {

// After an early error answer (413) the client may still be sending its body; reading and
// discarding it before closing lets the client finish sending and read the answer instead of
// getting a connection reset.
constexpr std::size_t kMaxDrainBytes = 64 * 1024 * 1024;
constexpr std::chrono::seconds kDrainTimeout{5};

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
  std::atomic<bool> accepting{true};
  int bound_port = 0;

  void doAccept();
};

namespace {

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
    if (counted_) --server_.in_flight;
    --server_.connections;
  }

  void start() {
    asio::dispatch(stream_.get_executor(),
                   beast::bind_front_handler(&Session::doRead, shared_from_this()));
  }

 private:
  void doRead() {
    parser_.emplace();
    parser_->body_limit(server_.options.body_limit);
    parser_->header_limit(static_cast<std::uint32_t>(server_.options.header_limit));
    stream_.expires_after(server_.options.read_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&Session::onRead, shared_from_this()));
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
    request.method = std::string(message.method_string());
    request.target = std::string(message.target());
    request.headers.reserve(8);
    for (const auto& field : message) {
      request.headers.emplace_back(lowercase(field.name_string()), std::string(field.value()));
    }
    request.body = std::move(message.body());
    request.remote_address = remote_;
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
    response_ = {};
    response_.version(version_ ? version_ : 11);
    response_.result(static_cast<unsigned>(answer.status));
    for (auto& [name, value] : answer.headers) response_.insert(name, value);
    response_.body() = std::move(answer.body);
    response_.keep_alive(keep_alive_ && !answer.close && server_.accepting);
    response_.prepare_payload();
    close_after_write_ = !response_.keep_alive();
    stream_.expires_after(server_.options.write_timeout);
    http::async_write(stream_, response_,
                      beast::bind_front_handler(&Session::onWrite, shared_from_this()));
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
  http::response<http::string_body> response_;
  std::string remote_;
  unsigned version_ = 11;
  bool keep_alive_ = true;
  bool close_after_write_ = false;
  bool draining_ = false;
  bool counted_ = false;
  std::size_t drained_ = 0;
  std::vector<char> discard_;
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
