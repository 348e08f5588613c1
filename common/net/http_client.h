#pragma once
// An asynchronous HTTP/1.1 client for server-to-server POSTs (webhook deliveries, model
// servers). Each POST has one deadline for the whole exchange, the addresses it connects to
// pass through a caller's filter (SSRF), and connections are kept alive per origin.
//
// Threads: post() may be called from any thread. Everything a client does, `done` included,
// runs on a strand of the executor given to the constructor, so the owner may run its
// io_context on one thread or several. Nothing blocks: names are looked up on threads of the
// client's own (name_resolver.h), so that one host's slow name server delays no other host.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ip/address.hpp>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace feedback::net {

struct HttpClientSettings {
  std::string ca_bundle;          // extra CA file (PEM) trusted besides the system CAs; empty: none
  bool allow_plain_http = false;  // webhooks: false (https only); model servers may allow http
  // Called with every resolved address before connecting to it; false refuses that address
  // (SSRF: the address actually connected to is checked, so DNS rebinding fails). Null: all
  // allowed. Runs on the client's strand.
  std::function<bool(const boost::asio::ip::address&)> address_allowed;
  std::chrono::milliseconds timeout{15000};  // whole exchange: resolve, connect, TLS, write, read
  std::size_t max_idle_per_host = 8;         // kept-alive connections per scheme://host:port
  std::size_t resolver_threads = 8;          // names looked up at once (each name once)
  std::chrono::seconds idle_timeout{50};     // idle connections older than this are not reused
  std::size_t excerpt_limit = 1024;          // bytes of the answer body kept in the result
  std::size_t body_limit = 64 * 1024;  // larger answers: read no further, close the connection
  std::string user_agent = "feedback-webhooks/1";
};

struct HttpRequest {
  std::string url;
  // Sent after the client's own headers; a name given here replaces the client's value for it
  // (User-Agent, Content-Type) or an earlier one in this list. Host, Content-Length,
  // Transfer-Encoding and the other hop-by-hop names are refused ("invalid_header"): the
  // client owns the message's framing and the connection.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::string content_type = "application/json";
};

struct HttpResult {
  int status = 0;  // 0: no HTTP answer (see error)
  // Empty when a whole answer came; else a short reason: "timeout", "refused_address",
  // "dns: ...", "connect: ...", "tls: ...", "io: ...", "invalid_url", "invalid_header",
  // "internal: ..." (an unexpected exception inside the client).
  // A status with an error means the header came but the body did not finish.
  std::string error;
  std::string body_excerpt;  // at most excerpt_limit bytes of the body
  // The whole body was read; false when it was longer than body_limit or did not finish.
  bool body_complete = false;
  std::optional<std::chrono::seconds> retry_after;  // seconds or HTTP-date, clamped >= 0
  std::chrono::milliseconds latency{0};
  bool reused_connection = false;
};

struct ClientCore;

class HttpClient {
 public:
  // Throws std::runtime_error when ca_bundle cannot be read as PEM certificates.
  HttpClient(boost::asio::any_io_executor executor, HttpClientSettings settings);
  // Closes the idle connections. POSTs in flight still end (at most `timeout` later; those
  // still waiting for their host's address at their deadline) and call `done`, provided the
  // executor still runs; if it is stopped first, `done` is dropped. Destroy the client before
  // its executor's io_context.
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // POSTs request.body to request.url. `done` runs exactly once, on the client's strand, never
  // inline. Redirects are not followed (a 3xx is returned as it is). A request that finds an
  // idle connection already closed by the peer (it fails before any byte of answer) is sent
  // once more on a fresh connection, within the same deadline.
  void post(HttpRequest request, std::function<void(HttpResult)> done);

  // Kept-alive connections waiting for a request, over all hosts; for tests and metrics.
  std::size_t idleConnections() const;

 private:
  std::shared_ptr<ClientCore> core_;
};

// The value of a Retry-After header: delay-seconds, or an HTTP-date (IMF-fixdate, RFC 850 or
// asctime) turned into the time left from `now`, clamped to [0, 2^31 - 1] seconds. nullopt when
// malformed.
std::optional<std::chrono::seconds> parseRetryAfter(std::string_view value,
                                                    std::chrono::system_clock::time_point now);

}  // namespace feedback::net
