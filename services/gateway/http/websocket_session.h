#pragma once
// A connection the HTTP server upgraded for a route (HttpRequest::accept_websocket): reads go
// to the route's handler, writes are queued in order, and a client that reads nothing is cut
// off once its backlog is full. Only the server creates these (server.cc).

#include <atomic>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <memory>
#include <string>

#include "services/gateway/http/message.h"

namespace feedback::gateway {

class WebSocketSession final : public WebSocketPeer,
                               public std::enable_shared_from_this<WebSocketSession> {
 public:
  // `connections` counts the server's open connections, this one included while it lives.
  WebSocketSession(boost::beast::tcp_stream&& stream,
                   std::shared_ptr<std::atomic<std::size_t>> connections);
  ~WebSocketSession() override;

  // Answers the upgrade `request` (whose connection had `buffer` read past it) and starts
  // reading, the handler made by `factory`.
  void start(boost::beast::http::request<boost::beast::http::string_body> request,
             boost::beast::flat_buffer buffer, const WebSocketFactory& factory);
  void sendText(std::string text) override;
  void close(std::string reason) override;

 private:
  void doRead();
  void doWrite();
  void doClose();
  void abort();
  void closed();

  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  const std::shared_ptr<std::atomic<std::size_t>> connections_;
  boost::beast::flat_buffer buffer_;
  WebSocketHandler handler_;
  std::deque<std::string> outbox_;
  std::string close_reason_;
  bool accepted_ = false;
  bool writing_ = false;
  bool closing_ = false;
  bool done_ = false;
};

}  // namespace feedback::gateway
