#include "common/asio/admin_http.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <thread>

#include "common/core/log.h"

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

namespace feedback {

struct AdminHttp::Impl {
  explicit Impl(Handlers h) : handlers(std::move(h)), acceptor(io) {}

  void serve(tcp::socket socket) {
    timeval timeout{2, 0};
    setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    boost::beast::flat_buffer buffer;
    http::request<http::string_body> request;
    boost::system::error_code ec;
    http::read(socket, buffer, request, ec);
    if (ec) return;
    std::string_view target = request.target();
    std::string_view path = target.substr(0, target.find('?'));
    http::response<http::string_body> response;
    response.version(request.version());
    response.keep_alive(false);
    if (path == "/healthz") {
      response.result(http::status::ok);
      response.set(http::field::content_type, "application/json");
      response.body() = R"({"status":"ok"})";
    } else if (path == "/readyz") {
      bool ready = handlers.ready();
      response.result(ready ? http::status::ok : http::status::service_unavailable);
      response.set(http::field::content_type, "application/json");
      response.body() = ready ? R"({"status":"ready"})" : R"({"status":"not ready"})";
    } else if (path == "/metrics") {
      response.result(http::status::ok);
      response.set(http::field::content_type, "text/plain; version=0.0.4");
      response.body() = handlers.metrics();
    } else {
      response.result(http::status::not_found);
      response.set(http::field::content_type, "application/json");
      response.body() = R"({"status":"not found"})";
    }
    response.prepare_payload();
    http::write(socket, response, ec);
    socket.shutdown(tcp::socket::shutdown_both, ec);
  }

  void run() {
    while (!stopping) {
      boost::system::error_code ec;
      tcp::socket socket(io);
      acceptor.accept(socket, ec);
      if (ec) {
        if (stopping) return;
        continue;
      }
      serve(std::move(socket));
    }
  }

  Handlers handlers;
  asio::io_context io;
  tcp::acceptor acceptor;
  std::atomic<bool> stopping{false};
  std::thread thread;
};

AdminHttp::AdminHttp(int port, Handlers handlers)
    : impl_(std::make_unique<Impl>(std::move(handlers))) {
  tcp::endpoint endpoint(asio::ip::address_v4::any(), static_cast<unsigned short>(port));
  impl_->acceptor.open(endpoint.protocol());
  impl_->acceptor.set_option(asio::socket_base::reuse_address(true));
  impl_->acceptor.bind(endpoint);
  impl_->acceptor.listen();
  impl_->thread = std::thread([impl = impl_.get()] { impl->run(); });
}

AdminHttp::~AdminHttp() {
  impl_->stopping = true;
  boost::system::error_code ec;
  // Unblocks accept().
  impl_->acceptor.cancel(ec);
  ::shutdown(impl_->acceptor.native_handle(), SHUT_RDWR);
  impl_->thread.join();
  impl_->acceptor.close(ec);
}

int AdminHttp::port() const {
  return impl_->acceptor.local_endpoint().port();
}

}  // namespace feedback
