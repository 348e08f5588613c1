// The HTTP request path (services/gateway/): any bytes sent to the gateway's port, one request
// or several on one connection, pass its HTTP server (limits, trailing-slash redirects, 404,
// 405, uploads), its stages and every route's handler, which maps the JSON body to the service's
// request. Each answer comes within the server's deadlines, is never a 500, is a 503 only with
// Retry-After and carries the contract's error body; every request a service receives parses
// (FakeBackends); answers to HEAD have no body.
#include "tests/fuzz/support/gateway_under_test.h"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  // Built once and never torn down: the process ends with the fuzzer.
  static const auto* gateway = new feedback::fuzz::GatewayUnderTest();
  const auto sent = feedback::fuzz::asText(data, size);
  feedback::fuzz::GatewayUnderTest::checkAnswers(sent, gateway->exchange(sent));
  return 0;
}
