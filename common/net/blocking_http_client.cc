#include "common/net/blocking_http_client.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <future>
#include <thread>

namespace feedback::net {
namespace {

// The client keeps the deadline; the wait adds this for its thread to say so.
constexpr std::chrono::seconds kMargin{5};

}  // namespace

struct BlockingHttpClient::Loop {
  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work{io.get_executor()};
  std::unique_ptr<HttpClient> http;
  std::chrono::milliseconds timeout;
  std::thread thread;
};

BlockingHttpClient::BlockingHttpClient(HttpClientSettings settings)
    : loop_(std::make_unique<Loop>()) {
  loop_->timeout = settings.timeout;
  loop_->http = std::make_unique<HttpClient>(loop_->io.get_executor(), std::move(settings));
  loop_->thread = std::thread([loop = loop_.get()] { loop->io.run(); });
}

BlockingHttpClient::~BlockingHttpClient() {
  loop_->http.reset();
  loop_->work.reset();
  loop_->io.stop();
  loop_->thread.join();
}

HttpResult BlockingHttpClient::post(HttpRequest request) const {
  auto answered = std::make_shared<std::promise<HttpResult>>();
  auto future = answered->get_future();
  loop_->http->post(std::move(request),
                    [answered](HttpResult result) { answered->set_value(std::move(result)); });
  HttpResult failed;
  if (future.wait_for(loop_->timeout + kMargin) != std::future_status::ready) {
    failed.error = "timeout";
    return failed;
  }
  try {
    return future.get();
  } catch (const std::future_error&) {
    failed.error = "stopped";  // the loop stopped first (shutting down)
    return failed;
  }
}

}  // namespace feedback::net
