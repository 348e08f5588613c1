#include "services/gateway/http/websocket_session.h"

#include <boost/asio/post.hpp>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;

namespace feedback::gateway {
namespace {

// A live transcription's frames are about 100 ms of 16 kHz PCM (3.2 KB), but other clients
// send seconds at a time; a message larger than this (some 30 s) closes the socket.
constexpr std::size_t kMaxWebSocketMessage = 1024 * 1024;
// Messages waiting for a client that does not read: beyond this the socket is closed.
constexpr std::size_t kMaxWebSocketBacklog = 256;

}  // namespace

WebSocketSession::WebSocketSession(beast::tcp_stream&& stream,
                                   std::shared_ptr<std::atomic<std::size_t>> connections)
    : ws_(std::move(stream)), connections_(std::move(connections)) {
  ++*connections_;
}

WebSocketSession::~WebSocketSession() {
  --*connections_;
}

void WebSocketSession::start(http::request<http::string_body> request, beast::flat_buffer buffer,
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

void WebSocketSession::sendText(std::string text) {
  asio::post(ws_.get_executor(), [self = shared_from_this(), text = std::move(text)]() mutable {
    if (self->done_) return;
    if (self->outbox_.size() >= kMaxWebSocketBacklog) return self->abort();
    self->outbox_.push_back(std::move(text));
    if (self->accepted_ && !self->writing_) self->doWrite();
  });
}

void WebSocketSession::close(std::string reason) {
  asio::post(ws_.get_executor(), [self = shared_from_this(), reason = std::move(reason)] {
    if (self->done_) return;
    self->closing_ = true;
    self->close_reason_ = reason;
    if (self->accepted_ && !self->writing_) self->doClose();
  });
}

void WebSocketSession::doRead() {
  ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
    if (ec) return self->closed();
    std::string message = beast::buffers_to_string(self->buffer_.data());
    self->buffer_.consume(self->buffer_.size());
    if (self->handler_.on_message)
      self->handler_.on_message(std::move(message), self->ws_.got_binary());
    self->doRead();
  });
}

void WebSocketSession::doWrite() {
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

void WebSocketSession::doClose() {
  ws_.async_close(websocket::close_reason(websocket::close_code::normal, close_reason_),
                  [self = shared_from_this()](beast::error_code) { self->closed(); });
}

void WebSocketSession::abort() {
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().close(ignored);
  closed();
}

// Once: the handler hears of it and is dropped, which ends the cycle between the two.
void WebSocketSession::closed() {
  if (done_) return;
  done_ = true;
  auto handler = std::move(handler_);
  handler_ = {};
  if (handler.on_closed) handler.on_closed();
}

}  // namespace feedback::gateway
