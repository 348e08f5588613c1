#include "services/gateway/http/response_head.h"

#include <catch2/catch.hpp>

using namespace feedback::gateway;

namespace {

std::string head(ResponseHead h) {
  std::string out = "left over from the answer before";
  renderHead(h, out);
  return out;
}

}  // namespace

TEST_CASE("response head: status line, the answer's fields, then the framing", "[response_head]") {
  const std::vector<std::pair<std::string, std::string>> fields = {
      {"Content-Type", "application/json"}, {"X-Request-Id", "abc"}};
  CHECK(head({11, 200, &fields, 42, true}) ==
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Request-Id: abc\r\n"
        "Content-Length: 42\r\n\r\n");
  CHECK(head({11, 404, &fields, 0, false}) ==
        "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nX-Request-Id: abc\r\n"
        "Content-Length: 0\r\nConnection: close\r\n\r\n");
}

TEST_CASE("response head: HTTP/1.0 closes unless kept alive", "[response_head]") {
  CHECK(head({10, 200, nullptr, 2, true}) ==
        "HTTP/1.0 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\n");
  CHECK(head({10, 200, nullptr, 2, false}) == "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n");
}

TEST_CASE("response head: no Content-Length where there is never a body", "[response_head]") {
  CHECK(head({11, 204, nullptr, 10, true}) == "HTTP/1.1 204 No Content\r\n\r\n");
  CHECK(head({11, 304, nullptr, 10, true}) == "HTTP/1.1 304 Not Modified\r\n\r\n");
  CHECK(head({11, 429, nullptr, 10, true}) ==
        "HTTP/1.1 429 Too Many Requests\r\nContent-Length: 10\r\n\r\n");
  CHECK_FALSE(statusHasBody(101));
  CHECK(statusHasBody(201));
}

TEST_CASE("response head: a body of unknown length is chunked, or ends with HTTP/1.0's connection",
          "[response_head]") {
  CHECK(head({11, 200, nullptr, 0, true, true}) ==
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
  CHECK(head({10, 200, nullptr, 0, false, true}) == "HTTP/1.0 200 OK\r\n\r\n");
  CHECK(head({11, 404, nullptr, 0, true, false}) ==
        "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
}
