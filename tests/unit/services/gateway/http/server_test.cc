#include "services/gateway/http/server.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <future>
#include <string>
#include <thread>

using namespace feedback::gateway;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

namespace {

// A keep-alive HTTP/1.1 client on a blocking socket that gives up on a read after 3 s, so
// that a request the server never answers fails the test instead of hanging it.
class RawClient {
 public:
  explicit RawClient(int port) : socket_(io_) {
    socket_.connect(
        tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
    timeval timeout{3, 0};
    setsockopt(socket_.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  }

  void send(const std::string& path) {
    asio::write(socket_, asio::buffer("GET " + path + " HTTP/1.1\r\nHost: test\r\n\r\n"));
  }

  // The answer's header section and body (the handler below always sends "ok"); empty when
  // the connection closed or the read timed out first.
  std::string receive() {
    std::size_t header_end;
    while ((header_end = data_.find("\r\n\r\n")) == std::string::npos ||
           data_.size() < header_end + 6) {
      if (!readSome()) return {};
    }
    std::string answer = data_.substr(0, header_end + 6);
    data_.erase(0, header_end + 6);
    return answer;
  }

  // True when the server closed its side (end of stream) before the read timed out; then
  // closes this side too, as a client does.
  bool closedByServer() {
    while (true) {
      char chunk[256];
      // recv itself: Asio's blocking reads wait past SO_RCVTIMEO.
      const auto n = ::recv(socket_.native_handle(), chunk, sizeof chunk, 0);
      if (n == 0 || (n < 0 && errno == ECONNRESET)) {
        socket_.close();
        return true;
      }
      if (n < 0) return false;
    }
  }

 private:
  bool readSome() {
    char chunk[4096];
    const auto n = ::recv(socket_.native_handle(), chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    data_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }

  asio::io_context io_;
  tcp::socket socket_;
  std::string data_;
};

HttpServerOptions options() {
  HttpServerOptions o;
  o.address = "127.0.0.1";
  o.threads = 2;
  o.idle_close_grace = 500ms;
  return o;
}

HttpResponse transportError(feedback::ErrorCode, std::string_view) {
  return HttpResponse{500, {}, "transport error"};
}

// Answers "ok"; "/slow" after 300 ms, from another thread, as a backend call would.
void answerOk(HttpRequest request, Respond respond) {
  if (request.path() == "/slow") {
    std::thread([respond = std::move(respond)] {
      std::this_thread::sleep_for(300ms);
      respond(HttpResponse{200, {}, "ok"});
    }).detach();
    return;
  }
  respond(HttpResponse{200, {}, "ok"});
}

bool closes(const std::string& answer) {
  return answer.find("Connection: close") != std::string::npos;
}

// A started server that a test stops in the background (stop() blocks while it drains) with
// a drain period far longer than any case needs: finishing early is what the cases check.
class StoppingServer {
 public:
  StoppingServer() { server_.start(); }
  int port() const { return server_.port(); }
  std::size_t openConnections() const { return server_.openConnections(); }
  // Until the server has accepted `count` connections: one still in the kernel's backlog when
  // the listening socket closes is reset, which no server can help.
  void waitForConnections(std::size_t count) const {
    for (int i = 0; i < 300 && server_.openConnections() < count; ++i) {
      std::this_thread::sleep_for(10ms);
    }
  }
  void beginStop() {
    stopped_ = std::async(std::launch::async, [this] { server_.stop(10s); });
  }
  // stop() returned, every connection done, well before the drain period ends.
  bool stoppedEarly() { return stopped_.wait_for(5s) == std::future_status::ready; }

 private:
  HttpServer server_{options(), answerOk, transportError};
  std::future<void> stopped_;
};

}  // namespace

TEST_CASE("server: a request on an idle keep-alive connection as the server stops is answered",
          "[http][server]") {
  StoppingServer server;
  RawClient client(server.port());
  client.send("/first");
  const auto first = client.receive();
  REQUIRE(first.rfind("HTTP/1.1 200", 0) == 0);
  CHECK_FALSE(closes(first));

  server.beginStop();
  // A proxy that picked this connection just before the stop began sends its request now: it
  // is answered, and told that the connection closes, not reset.
  std::this_thread::sleep_for(100ms);
  client.send("/second");
  const auto second = client.receive();
  CHECK(second.rfind("HTTP/1.1 200", 0) == 0);
  CHECK(second.find("\r\n\r\nok") != std::string::npos);
  CHECK(closes(second));
  CHECK(client.closedByServer());
  // Every connection is done: stop() does not wait for the rest of the drain period.
  CHECK(server.stoppedEarly());
}

TEST_CASE("server: an idle connection is closed after the grace when the server stops",
          "[http][server]") {
  StoppingServer server;
  RawClient client(server.port());
  client.send("/first");
  REQUIRE(!client.receive().empty());

  server.beginStop();
  CHECK(client.closedByServer());
  CHECK(server.stoppedEarly());
  CHECK(server.openConnections() == 0);
}

TEST_CASE("server: a request in progress as the server stops gets its answer and a close",
          "[http][server]") {
  StoppingServer server;
  RawClient client(server.port());
  client.send("/slow");
  server.waitForConnections(1);
  std::this_thread::sleep_for(50ms);

  server.beginStop();
  const auto answer = client.receive();
  CHECK(answer.rfind("HTTP/1.1 200", 0) == 0);
  CHECK(closes(answer));
  CHECK(client.closedByServer());
  CHECK(server.stoppedEarly());
}

TEST_CASE("server: a stopping server takes no new connection", "[http][server]") {
  StoppingServer server;
  const int port = server.port();
  RawClient holder(port);  // keeps the drain going while the new connection is tried
  holder.send("/slow");
  server.waitForConnections(1);
  server.beginStop();
  std::this_thread::sleep_for(100ms);
  bool refused = false;
  try {
    RawClient late(port);
    late.send("/late");
    refused = late.receive().empty();
  } catch (const boost::system::system_error&) {
    refused = true;
  }
  CHECK(refused);
  CHECK(closes(holder.receive()));
  CHECK(holder.closedByServer());
  CHECK(server.stoppedEarly());
}

namespace {

// Accepts a WebSocket on /ws whose peer is sent "hello"; answers the upgrade at once on the
// connection's loop, or on /ws-later from another thread, as a route waiting on a backend.
void acceptWebSocket(HttpRequest request, Respond respond) {
  if (!request.accept_websocket) return respond(HttpResponse{400, {}, "no upgrade"});
  request.accept_websocket([](std::shared_ptr<WebSocketPeer> peer) {
    peer->sendText("hello");
    return WebSocketHandler{};
  });
  if (request.path() == "/ws-later") {
    std::thread([respond = std::move(respond)] {
      std::this_thread::sleep_for(50ms);
      respond(HttpResponse{101, {}, {}});
    }).detach();
    return;
  }
  respond(HttpResponse{101, {}, {}});
}

// The upgrade's answer and the first frame, as raw bytes.
std::string upgrade(int port, const std::string& path) {
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(
      tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
  timeval timeout{3, 0};
  setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  asio::write(socket, asio::buffer("GET " + path +
                                   " HTTP/1.1\r\nHost: test\r\nUpgrade: websocket\r\n"
                                   "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                                   "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"));
  std::string data;
  while (data.find("hello") == std::string::npos) {
    char chunk[1024];
    const auto n = ::recv(socket.native_handle(), chunk, sizeof chunk, 0);
    if (n <= 0) break;
    data.append(chunk, static_cast<std::size_t>(n));
  }
  return data;
}

}  // namespace

TEST_CASE("server: a WebSocket is accepted whether the route answers at once or later",
          "[http][server]") {
  HttpServer server(options(), acceptWebSocket, transportError);
  server.start();
  for (const char* path : {"/ws", "/ws-later"}) {
    const auto answer = upgrade(server.port(), path);
    INFO(path << ": " << answer);
    CHECK(answer.rfind("HTTP/1.1 101 Switching Protocols\r\n", 0) == 0);
    CHECK(answer.find("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") != std::string::npos);
    CHECK(answer.find("hello") != std::string::npos);
  }
  server.stop(0ms);
}
