#include "common/net/http_client.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <catch2/catch.hpp>
#include <optional>
#include <thread>

#include "tests/unit/common/net/test_server.h"

namespace asio = boost::asio;
using feedback::net::HttpClient;
using feedback::net::HttpClientSettings;
using feedback::net::HttpRequest;
using feedback::net::HttpResult;
using feedback::net::testing::answer;
using feedback::net::testing::pki;
using feedback::net::testing::Reply;
using feedback::net::testing::Script;
using feedback::net::testing::Seen;
using feedback::net::testing::serverTls;
using feedback::net::testing::TestServer;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

namespace {

std::unique_ptr<TestServer> tlsServer(Script script) {
  return std::make_unique<TestServer>(serverTls(pki().server.get()), std::move(script));
}

HttpClientSettings trusting() {
  HttpClientSettings settings;
  settings.ca_bundle = pki().ca_file;
  return settings;
}

HttpRequest post(std::string url, std::string body = R"({"event":"ping"})") {
  HttpRequest request;
  request.url = std::move(url);
  request.body = std::move(body);
  return request;
}

// The client's side: its own io_context, run on the test's thread until every answer came.
struct Client {
  explicit Client(HttpClientSettings settings) : client(io.get_executor(), std::move(settings)) {}

  std::vector<HttpResult> sendAll(std::vector<HttpRequest> requests) {
    std::vector<std::optional<HttpResult>> results(requests.size());
    finished.clear();
    for (std::size_t i = 0; i < requests.size(); ++i) {
      client.post(requests[i], [this, &results, i](HttpResult result) {
        results[i] = std::move(result);
        finished.push_back(i);
      });
    }
    REQUIRE(finished.empty());  // `done` never runs inline
    io.restart();
    io.run_for(5s);
    std::vector<HttpResult> out;
    for (auto& result : results) {
      REQUIRE(result.has_value());
      out.push_back(std::move(*result));
    }
    return out;
  }
  HttpResult send(HttpRequest request) { return sendAll({std::move(request)})[0]; }

  asio::io_context io;
  HttpClient client;
  std::vector<std::size_t> finished;
};

bool startsWith(const std::string& s, std::string_view prefix) {
  return s.rfind(prefix, 0) == 0;
}

}  // namespace

TEST_CASE("http_client: a POST over TLS arrives whole and its answer comes back", "[http_client]") {
  auto server = tlsServer(answer({.status = 201, .headers = {{"X-Reply", "1"}}, .body = "thanks"}));
  Client c(trusting());
  HttpRequest request = post(server->url("/hooks/a?x=1&y=%20"), R"({"event":"response.created"})");
  request.headers = {{"webhook-id", "evt_1"}, {"webhook-signature", "v1,abc"}};
  HttpResult result = c.send(request);
  CHECK(result.error == "");
  CHECK(result.status == 201);
  CHECK(result.body_excerpt == "thanks");
  CHECK(result.body_complete);
  CHECK_FALSE(result.reused_connection);
  CHECK(result.latency < 2000ms);
  auto seen = server->seen();
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].method == "POST");
  CHECK(seen[0].target == "/hooks/a?x=1&y=%20");
  CHECK(seen[0].body == R"({"event":"response.created"})");
  CHECK(seen[0].headers["host"] == server->url("").substr(8));
  CHECK(seen[0].headers["user-agent"] == "feedback-webhooks/1");
  CHECK(seen[0].headers["content-type"] == "application/json");
  CHECK(seen[0].headers["content-length"] == std::to_string(seen[0].body.size()));
  CHECK(seen[0].headers["webhook-id"] == "evt_1");
  CHECK(seen[0].headers["webhook-signature"] == "v1,abc");
}

TEST_CASE("http_client: an empty path is sent as /", "[http_client]") {
  auto server = tlsServer(answer({}));
  Client c(trusting());
  CHECK(c.send(post(server->url(""), "")).status == 200);
  REQUIRE(server->seen().size() == 1);
  CHECK(server->seen()[0].target == "/");
  CHECK(server->seen()[0].headers["content-length"] == "0");
}

TEST_CASE("http_client: certificates that do not verify fail the TLS handshake", "[http_client]") {
  SECTION("a CA the client does not trust") {
    auto server = tlsServer(answer({}));
    Client c(HttpClientSettings{});
    HttpResult result = c.send(post(server->url()));
    CHECK(result.status == 0);
    CHECK(startsWith(result.error, "tls: "));
    CHECK(server->seen().empty());
  }
  SECTION("a trusted CA, but a certificate for another name") {
    TestServer server(serverTls(pki().wrong_name.get()), answer({}));
    Client c(trusting());
    HttpResult result = c.send(post(server.url()));
    CHECK(startsWith(result.error, "tls: "));
    CHECK(server.seen().empty());
  }
}

TEST_CASE("http_client: refused addresses are never connected to", "[http_client]") {
  auto server = tlsServer(answer({}));
  std::vector<asio::ip::address> asked;
  HttpClientSettings settings = trusting();
  bool allow = GENERATE(false, true);
  settings.address_allowed = [&](const asio::ip::address& address) {
    asked.push_back(address);
    return allow;
  };
  Client c(settings);
  HttpResult result = c.send(post(server->url()));
  REQUIRE(asked.size() == 1);
  CHECK(asked[0] == asio::ip::make_address("127.0.0.1"));
  if (allow) {
    CHECK(result.status == 200);
    CHECK(server->accepted() == 1);
  } else {
    CHECK(result.status == 0);
    CHECK(result.error == "refused_address");
    CHECK(server->accepted() == 0);
  }
}

TEST_CASE("http_client: a receiver that never answers times out, others are not held up",
          "[http_client]") {
  auto silent = tlsServer(answer({.kind = Reply::kSilent}));
  auto healthy = tlsServer(answer({}));
  HttpClientSettings settings = trusting();
  settings.timeout = 300ms;
  Client c(settings);
  auto results = c.sendAll({post(silent->url()), post(healthy->url())});
  CHECK(results[0].status == 0);
  CHECK(results[0].error == "timeout");
  CHECK(results[0].latency >= 300ms);
  CHECK(results[0].latency < 1000ms);
  CHECK(results[1].status == 200);
  CHECK(results[1].latency < 300ms);
  CHECK(c.finished == std::vector<std::size_t>{1, 0});
  CHECK(silent->seen().size() == 1);
}

TEST_CASE("http_client: a request in flight ends after its client is destroyed", "[http_client]") {
  auto silent = tlsServer(answer({.kind = Reply::kSilent}));
  HttpClientSettings settings = trusting();
  settings.timeout = 300ms;
  asio::io_context io;
  auto client = std::make_unique<HttpClient>(io.get_executor(), settings);
  std::optional<HttpResult> result;
  client->post(post(silent->url()), [&](HttpResult r) { result = std::move(r); });
  client.reset();
  io.run_for(5s);
  REQUIRE(result);
  CHECK(result->error == "timeout");
}

TEST_CASE("http_client: sequential requests reuse one kept-alive connection", "[http_client]") {
  auto server = tlsServer(answer({}));
  Client c(trusting());
  HttpResult first = c.send(post(server->url()));
  CHECK(c.client.idleConnections() == 1);
  HttpResult second = c.send(post(server->url("/other")));
  CHECK(first.status == 200);
  CHECK_FALSE(first.reused_connection);
  CHECK(second.status == 200);
  CHECK(second.reused_connection);
  CHECK(server->accepted() == 1);
  CHECK(server->seen().size() == 2);
  CHECK(c.client.idleConnections() == 1);
}

TEST_CASE("http_client: idle connections are bounded per origin", "[http_client]") {
  auto server = tlsServer(answer({}));
  HttpClientSettings settings = trusting();
  settings.max_idle_per_host = 1;
  Client c(settings);
  auto results = c.sendAll({post(server->url()), post(server->url()), post(server->url())});
  for (const auto& result : results) CHECK(result.status == 200);
  CHECK(server->accepted() == 3);
  CHECK(c.client.idleConnections() == 1);
}

TEST_CASE("http_client: a connection the receiver closed while idle is not a failure",
          "[http_client]") {
  SECTION("closed right after its answer") {
    auto server = tlsServer(answer({.close_after = true}));
    Client c(trusting());
    CHECK(c.send(post(server->url())).status == 200);
    std::this_thread::sleep_for(50ms);
    HttpResult second = c.send(post(server->url()));
    CHECK(second.status == 200);
    CHECK_FALSE(second.reused_connection);
    CHECK(server->accepted() == 2);
  }
  SECTION("closed as the next request arrives: sent once more on a fresh connection") {
    auto server = tlsServer(
        [](const Seen&, int index) { return index == 0 ? Reply{} : Reply{.kind = Reply::kClose}; });
    Client c(trusting());
    CHECK(c.send(post(server->url())).status == 200);
    HttpResult second = c.send(post(server->url(), "second"));
    CHECK(second.status == 200);
    CHECK(second.error == "");
    CHECK_FALSE(second.reused_connection);
    CHECK(server->accepted() == 2);
    auto seen = server->seen();
    REQUIRE(seen.size() == 3);
    CHECK(seen[1].body == "second");
    CHECK(seen[2].body == "second");
    CHECK(seen[2].connection == 2);
  }
  SECTION("a fresh connection closed without an answer is not retried") {
    auto server = tlsServer(answer({.kind = Reply::kClose}));
    Client c(trusting());
    HttpResult result = c.send(post(server->url()));
    CHECK(result.status == 0);
    CHECK(startsWith(result.error, "io: "));
    CHECK(server->accepted() == 1);
  }
}

TEST_CASE("http_client: redirects are returned, not followed", "[http_client]") {
  auto server = tlsServer(answer({.status = 302, .headers = {{"Location", "/elsewhere"}}}));
  Client c(trusting());
  HttpResult result = c.send(post(server->url()));
  CHECK(result.status == 302);
  CHECK(result.error == "");
  CHECK(server->seen().size() == 1);
}

TEST_CASE("http_client: Retry-After of a 429 comes back in seconds", "[http_client]") {
  auto server = tlsServer(answer({.status = 429, .headers = {{"Retry-After", "7"}}}));
  Client c(trusting());
  HttpResult result = c.send(post(server->url()));
  CHECK(result.status == 429);
  REQUIRE(result.retry_after);
  CHECK(*result.retry_after == 7s);
}

TEST_CASE("http_client: answer bodies are cut to the excerpt and the body limit", "[http_client]") {
  SECTION("a body within the limit is read whole, its excerpt cut") {
    auto server = tlsServer(answer({.body = std::string(5000, 'x')}));
    Client c(trusting());
    HttpResult result = c.send(post(server->url()));
    CHECK(result.status == 200);
    CHECK(result.body_excerpt == std::string(1024, 'x'));
    CHECK(result.body_complete);
    CHECK(c.client.idleConnections() == 1);
  }
  SECTION("a body beyond the limit is not read further and its connection is closed") {
    auto server = tlsServer(answer({.body = std::string(1 << 20, 'y')}));
    HttpClientSettings settings = trusting();
    settings.excerpt_limit = 100;
    settings.body_limit = 4096;
    Client c(settings);
    HttpResult result = c.send(post(server->url()));
    CHECK(result.status == 200);
    CHECK(result.error == "");
    CHECK(result.body_excerpt == std::string(100, 'y'));
    CHECK_FALSE(result.body_complete);
    CHECK(c.client.idleConnections() == 0);
  }
}

TEST_CASE("http_client: answers framed by the connection's end or after a 100 Continue",
          "[http_client]") {
  std::string raw =
      GENERATE(std::string("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello"),
               std::string("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n"
                           "Content-Length: 5\r\n\r\nhello"));
  auto server = tlsServer(answer({.kind = Reply::kRaw, .raw = raw}));
  Client c(trusting());
  HttpResult result = c.send(post(server->url()));
  CHECK(result.status == 200);
  CHECK(result.error == "");
  CHECK(result.body_excerpt == "hello");
  CHECK(result.body_complete);
}

TEST_CASE("http_client: plain http only when allowed", "[http_client]") {
  TestServer server(nullptr, answer({}));
  {
    Client c(HttpClientSettings{});
    CHECK(c.send(post(server.url())).error == "invalid_url");
    CHECK(server.accepted() == 0);
  }
  HttpClientSettings settings;
  settings.allow_plain_http = true;
  Client c(settings);
  HttpResult result = c.send(post(server.url()));
  CHECK(result.status == 200);
  CHECK(result.body_excerpt == "ok");
  CHECK(server.accepted() == 1);
}

TEST_CASE("http_client: invalid URLs and headers are refused before any connection",
          "[http_client]") {
  auto server = tlsServer(answer({}));
  Client c(trusting());
  const std::string port = server->url("").substr(std::string("https://127.0.0.1").size());
  for (std::string url :
       {std::string(""), std::string("not a url"), std::string("/relative"),
        std::string("ftp://127.0.0.1/"), std::string("https://"), std::string("https:///path"),
        "https://user:pw@127.0.0.1" + port + "/", std::string("https://127.0.0.1:99999/"),
        std::string("https://127.0.0.1:65536/"), std::string("https://127.0.0.1:0/"),
        std::string("https://[v1.x]/"), std::string("https://exa mple.com/"),
        std::string("https://%00bad.example/")}) {
    INFO(url);
    CHECK(c.send(post(url)).error == "invalid_url");
  }
  for (std::pair<std::string, std::string> header :
       {std::pair<std::string, std::string>{"X-Evil", "a\r\nInjected: 1"},
        {"Content-Length", "5"},
        {"Host", "elsewhere"},
        {"Bad Name", "x"},
        {"", "x"}}) {
    INFO(header.first);
    HttpRequest request = post(server->url());
    request.headers = {header};
    CHECK(c.send(request).error == "invalid_header");
  }
  CHECK(server->accepted() == 0);
}

TEST_CASE("http_client: a closed port gives a connect error", "[http_client]") {
  asio::io_context io;
  tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), 0});
  const auto port = acceptor.local_endpoint().port();
  acceptor.close();
  Client c(trusting());
  HttpResult result = c.send(post("https://127.0.0.1:" + std::to_string(port) + "/"));
  CHECK(result.status == 0);
  CHECK(startsWith(result.error, "connect: "));
}

TEST_CASE("http_client: an unreadable CA bundle is refused at construction", "[http_client]") {
  asio::io_context io;
  for (std::string path : {pki().garbage_file, pki().ca_file + ".missing"}) {
    HttpClientSettings settings;
    settings.ca_bundle = path;
    CHECK_THROWS_AS(HttpClient(io.get_executor(), settings), std::runtime_error);
  }
}

TEST_CASE("http_client: Retry-After as seconds or as an HTTP-date", "[http_client]") {
  using feedback::net::parseRetryAfter;
  // Sun, 06 Nov 1994 08:49:37 GMT
  const auto date = std::chrono::system_clock::time_point(784111777s);
  CHECK(parseRetryAfter("7", date) == 7s);
  CHECK(parseRetryAfter(" 120 ", date) == 120s);
  CHECK(parseRetryAfter("0", date) == 0s);
  CHECK(parseRetryAfter("99999999999999999999999", date) == std::chrono::seconds(2147483647));
  CHECK(parseRetryAfter("Sun, 06 Nov 1994 08:50:07 GMT", date) == 30s);
  CHECK(parseRetryAfter("Sunday, 06-Nov-94 08:50:07 GMT", date) == 30s);
  CHECK(parseRetryAfter("Sun Nov  6 08:50:07 1994", date) == 30s);
  CHECK(parseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", date + 500ms) == 0s);
  CHECK(parseRetryAfter("Sat, 05 Nov 1994 08:49:37 GMT", date) == 0s);
  for (std::string_view bad : {"", "-5", "1.5", "soon", "Sun, 31 Feb 1994 08:49:37 GMT",
                               "Sun, 06 Nov 1994 25:00:00 GMT", "Sun, 06 Nov 1994 GMT"}) {
    INFO(bad);
    CHECK_FALSE(parseRetryAfter(bad, date));
  }
}
