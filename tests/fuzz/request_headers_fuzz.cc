// The request headers the gateway reads (the input is one header value, tried as each):
// Authorization's bearer key (a part of the header), Content-Type, the W3C traceparent (read
// or a new trace; a read one prints back and reads again the same), X-Forwarded-For and
// X-Forwarded-Host behind a trusted proxy (the client is the proxy or an entry of the header;
// an untrusted entry ends the walk), the Host of the public intake (a lowercase subdomain or
// none) and X-File-Name (percent-encoded).
#include <cctype>

#include "common/core/names.h"
#include "common/core/trace.h"
#include "services/gateway/http/client_address.h"
#include "services/gateway/http/query.h"
#include "services/gateway/pipeline/stages.h"
#include "tests/fuzz/fuzz_check.h"

namespace gw = feedback::gateway;

namespace {

void checkTraceParent(std::string_view header) {
  auto parsed = feedback::trace::parse(header);
  if (!parsed) return;
  FUZZ_CHECK(parsed->trace_id.size() == 32 && parsed->span_id.size() == 16);
  const std::string printed = feedback::trace::format(*parsed);
  auto again = feedback::trace::parse(printed);
  FUZZ_CHECK(again && again->trace_id == parsed->trace_id && again->span_id == parsed->span_id &&
             again->sampled == parsed->sampled);
  const auto child = feedback::trace::child(*parsed);
  FUZZ_CHECK(child.trace_id == parsed->trace_id && child.span_id.size() == 16);
}

void checkForwarded(std::string_view value) {
  static const gw::ClientAddresses clients({"10.0.0.0/8", "::1", "2001:db8::/32"});
  gw::HttpRequest request;
  request.remote_address = "10.1.2.3";  // a trusted proxy: its X-Forwarded-* are believed
  request.headers = {{"x-forwarded-for", std::string(value)},
                     {"x-forwarded-host", std::string(value)},
                     {"host", "fallback.example"}};
  const std::string client = clients.of(request);
  // The proxy itself, or an entry of the header; and the walk stops at the first hop that is
  // not a trusted proxy, so a client can never pass for one by writing a trusted address
  // before its own.
  FUZZ_CHECK(client == request.remote_address || value.find(client) != std::string_view::npos);
  const auto hops = gw::splitList(value);
  for (std::size_t i = hops.size(); i-- > 0;) {
    if (hops[i] == client) break;
    FUZZ_CHECK(clients.trusted(hops[i]) || client == request.remote_address);
  }
  const auto host = clients.hostOf(request);
  FUZZ_CHECK(host.size() <= value.size() || host == "fallback.example");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  const auto value = feedback::fuzz::asText(data, size);

  const auto key = gw::bearerToken(value);
  FUZZ_CHECK(key.size() <= value.size());
  if (!key.empty()) FUZZ_CHECK(value.find(key) != std::string_view::npos);

  if (gw::isJsonMediaType(value)) FUZZ_CHECK(value.size() >= 16);

  checkTraceParent(value);
  checkForwarded(value);

  const std::string subdomain = feedback::subdomainOfHost(value, "feedback.example");
  FUZZ_CHECK(subdomain.size() <= value.size());
  for (char c : subdomain) FUZZ_CHECK(!std::isupper(static_cast<unsigned char>(c)));

  const std::string file_name = gw::percentDecode(value);
  FUZZ_CHECK(file_name.size() <= value.size());
  return 0;
}
