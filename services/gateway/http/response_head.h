#pragma once
// The header section of an answer, written by hand into a buffer its connection reuses: the
// status line, the answer's fields, then the framing fields the server owns (Content-Length,
// Connection). Beast's generic serializer cost a field allocation per header and a buffer
// sequence walk per write; an answer's head is only a few hundred bytes to append.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace feedback::gateway {

struct ResponseHead {
  unsigned version = 11;  // 10 or 11, the request's
  int status = 200;
  const std::vector<std::pair<std::string, std::string>>* fields = nullptr;
  // The body's length; ignored for statuses that have no body (1xx, 204, 304).
  uint64_t content_length = 0;
  bool keep_alive = true;
  // The length is not known: HTTP/1.1 sends the body in chunks (Transfer-Encoding: chunked),
  // HTTP/1.0 until the connection closes (keep_alive must then be false).
  bool chunked = false;
};

// Whether an answer of `status` carries a body (RFC 9110 6.4.1, 15.3.5, 15.4.5).
bool statusHasBody(int status);

// Replaces `out` with the head, ending in the empty line.
void renderHead(const ResponseHead& head, std::string& out);

}  // namespace feedback::gateway
