#include "tests/fuzz/support/gateway_under_test.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/beast/http.hpp>
#include <boost/json/parse.hpp>
#include <chrono>

#include "common/asio/io_threads.h"
#include "common/core/scopes.h"
#include "services/gateway/gateway_routes.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/http/server.h"
#include "services/gateway/pipeline/stages.h"
#include "tests/fuzz/fuzz_check.h"

namespace feedback::fuzz {
namespace {

namespace http = boost::beast::http;

// Longer than any of the server's own deadlines below: an exchange that lasts this long hangs.
constexpr int kHangMs = 10000;

gateway::GatewayConfig configOf() {
  gateway::GatewayConfig c;
  c.api.address = "127.0.0.1";
  c.api.port = 0;
  c.api.threads = 1;
  c.api.read_timeout = std::chrono::milliseconds(2000);
  c.api.write_timeout = std::chrono::milliseconds(2000);
  c.redis = {"127.0.0.1", 1};
  c.backend_timeout = std::chrono::milliseconds(2000);
  c.secrets_key = "ZnV6ei1zZWNyZXRzLWtleS1mdXp6LXNlY3JldHMta2V5";
  c.response_page_cache_bytes = 1024 * 1024;
  c.link_cache_bytes = 1024 * 1024;
  c.link_cache_entries = 100;
  return c;
}

// Instead of the API key and the Host header (which need Redis and the tokens service): the
// caller holds every scope of one workspace, and public routes are on its host.
class EveryScopeStage final : public gateway::Stage {
 public:
  void decode(const gateway::ContextPtr& ctx, gateway::Chain chain) override {
    ctx->caller = ctx->route->attributes.access == gateway::Access::kApiKey ? key_ : host_;
    chain.next();
  }

 private:
  static gateway::CallerPtr caller(bool with_key) {
    auto caller = std::make_shared<common::v1::Caller>();
    auto* workspace = caller->mutable_workspace();
    workspace->set_uuid("6f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f60");
    workspace->set_host("acme.feedback.example");
    workspace->set_plan("enterprise");
    if (with_key) {
      caller->set_token_uuid("1f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f60");
      for (auto scope : scopes::kAll) caller->add_scopes(std::string(scope));
    }
    return caller;
  }

  const gateway::CallerPtr key_ = caller(true);
  const gateway::CallerPtr host_ = caller(false);
};

}  // namespace

struct GatewayUnderTest::Parts {
  explicit Parts(const gateway::Backends& backends)
      : redis(loops, config.redis.host, config.redis.port),
        routes(config, backends, redis, metrics, revoked),
        finish(metrics, false),
        pipeline(gateway::buildStages({
                     .routes = routes.routes(),
                     .credentials = std::make_unique<EveryScopeStage>(),
                     .media_urls = &routes.mediaUrls(),
                     .loops = &loops,
                 }),
                 finish, config.backend_timeout),
        server(
            loops, routes.withBodyLimits(config.api),
            [this](gateway::HttpRequest r, gateway::Respond respond) {
              pipeline.handle(std::move(r), std::move(respond));
            },
            &gateway::transportErrorResponse) {
    loops.start();
    server.start();
  }

  const gateway::GatewayConfig config = configOf();
  IoThreads loops{config.api.threads};
  RedisClient redis;
  gateway::Metrics metrics;
  gateway::RevokedKeys revoked{[] { return gateway::FeedMark{1, true}; }};
  const gateway::GatewayRoutes routes;
  gateway::ResponseFinish finish;
  gateway::Pipeline pipeline;
  gateway::HttpServer server;
};

GatewayUnderTest::GatewayUnderTest()
    : backends_(std::make_unique<FakeBackends>()),
      parts_(std::make_unique<Parts>(backends_->backends())) {}

GatewayUnderTest::~GatewayUnderTest() {
  parts_->server.stop(std::chrono::milliseconds(0));
}

std::string GatewayUnderTest::exchange(std::string_view bytes) const {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  FUZZ_CHECK(fd >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(parts_->server.port()));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    // Interrupted by libFuzzer's timer (SIGALRM), the connection goes on being made.
    FUZZ_CHECK(errno == EINTR);
    pollfd p{fd, POLLOUT, 0};
    while (poll(&p, 1, kHangMs) < 0 && errno == EINTR) {
    }
    int error = 0;
    socklen_t length = sizeof error;
    FUZZ_CHECK(getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0);
  }
  // A server that stops reading gets cut off by its own deadlines: a send blocked past them
  // hangs as much as an answer that never comes.
  const timeval send_timeout{kHangMs / 1000, 0};
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send_timeout, sizeof send_timeout);
  // The server may answer and close before taking everything (a refused upload): what it did
  // not read is simply not sent.
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const auto n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    FUZZ_CHECK(!(n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)));
    if (n <= 0) break;
    sent += static_cast<std::size_t>(n);
  }
  shutdown(fd, SHUT_WR);
  std::string received;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kHangMs);
  char buffer[16384];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    // No answer, nor a close, within every deadline the server has: it hangs.
    FUZZ_CHECK(left.count() > 0);
    pollfd p{fd, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left.count()));
    // libFuzzer's own timer (SIGALRM) interrupts the wait now and then.
    if (ready < 0 && errno == EINTR) continue;
    FUZZ_CHECK(ready == 1);
    const auto n = recv(fd, buffer, sizeof buffer, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    received.append(buffer, static_cast<std::size_t>(n));
  }
  // The server has closed its side: closed without TIME_WAIT, or hundreds of exchanges a
  // second would use up the machine's ephemeral ports within minutes.
  const linger abortive{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &abortive, sizeof abortive);
  close(fd);
  return received;
}

namespace {

// The methods of the requests in `sent`, in order, as far as they parse: an answer to HEAD has
// no body, and a client reads the next answer right after its header.
std::vector<std::string> methodsOf(std::string_view sent) {
  std::vector<std::string> methods;
  while (!sent.empty()) {
    http::request_parser<http::string_body> parser;
    parser.eager(true);
    parser.header_limit(16 * 1024);  // the server's (HttpServerOptions::header_limit)
    parser.body_limit(64 * 1024 * 1024);
    boost::beast::error_code ec;
    const std::size_t used = parser.put(boost::asio::buffer(sent.data(), sent.size()), ec);
    if (ec || !parser.is_done()) break;
    methods.emplace_back(parser.get().method_string());
    sent.remove_prefix(used);
  }
  return methods;
}

void checkErrorBody(const http::response<http::string_body>& answer) {
  const auto type = answer[http::field::content_type];
  // The intake page's errors are pages; everything else is the contract's error body.
  if (type.starts_with("text/html")) return;
  FUZZ_CHECK(type == "application/json");
  boost::system::error_code ec;
  auto body = boost::json::parse(answer.body(), ec);
  FUZZ_CHECK(!ec && body.is_object());
  const auto* error = body.as_object().if_contains("error");
  FUZZ_CHECK(error && error->is_object());
  FUZZ_CHECK(error->as_object().contains("code") && error->as_object().contains("message") &&
             error->as_object().contains("request_id"));
}

}  // namespace

void GatewayUnderTest::checkAnswers(std::string_view sent, std::string_view received) {
  const auto methods = methodsOf(sent);
  std::size_t answered = 0;
  bool kept_open = true;
  while (!received.empty()) {
    http::response_parser<http::string_body> parser;
    const bool head = answered < methods.size() && methods[answered] == "HEAD";
    parser.skip(head);
    parser.eager(true);
    parser.body_limit(64 * 1024 * 1024);
    boost::beast::error_code ec;
    const std::size_t used = parser.put(boost::asio::buffer(received.data(), received.size()), ec);
    // The server writes whole, well-formed answers.
    FUZZ_CHECK(!ec && parser.is_done());
    received.remove_prefix(used);
    const auto& answer = parser.get();
    const int status = answer.result_int();
    if (status == 100) continue;  // the interim answer to Expect: 100-continue
    if (status == 101) return;    // WebSocket frames follow
    ++answered;
    kept_open = answer.keep_alive();
    FUZZ_CHECK(status != 500);
    if (status == 503) FUZZ_CHECK(answer.count(http::field::retry_after) == 1);
    if (status >= 400 && !head) checkErrorBody(answer);
  }
  // Every whole request is answered, unless an answer before it closed the connection.
  FUZZ_CHECK(answered >= methods.size() || !kept_open);
}

}  // namespace feedback::fuzz
