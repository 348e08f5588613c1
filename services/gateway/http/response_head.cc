#include "services/gateway/http/response_head.h"

#include <boost/beast/http/status.hpp>
#include <charconv>

namespace feedback::gateway {
namespace {

void appendNumber(std::string& out, uint64_t n) {
  char digits[24];
  auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
  out.append(digits, end);
}

}  // namespace

bool statusHasBody(int status) {
  return status >= 200 && status != 204 && status != 304;
}

void renderHead(const ResponseHead& head, std::string& out) {
  namespace http = boost::beast::http;
  out.clear();
  out.append(head.version == 10 ? "HTTP/1.0 " : "HTTP/1.1 ");
  appendNumber(out, static_cast<uint64_t>(head.status));
  out.push_back(' ');
  const auto reason =
      http::obsolete_reason(http::int_to_status(static_cast<unsigned>(head.status)));
  out.append(reason.data(), reason.size());
  out.append("\r\n");
  if (head.fields) {
    for (const auto& [name, value] : *head.fields) {
      out.append(name).append(": ").append(value).append("\r\n");
    }
  }
  if (statusHasBody(head.status) && head.chunked) {
    if (head.version != 10) out.append("Transfer-Encoding: chunked\r\n");
  } else if (statusHasBody(head.status)) {
    out.append("Content-Length: ");
    appendNumber(out, head.content_length);
    out.append("\r\n");
  }
  // HTTP/1.1 keeps a connection unless told; HTTP/1.0 closes it unless told.
  if (head.version == 10 && head.keep_alive) out.append("Connection: keep-alive\r\n");
  if (head.version != 10 && !head.keep_alive) out.append("Connection: close\r\n");
  out.append("\r\n");
}

}  // namespace feedback::gateway
