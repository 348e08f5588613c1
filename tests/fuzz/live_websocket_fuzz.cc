// Live transcription's WebSocket (GET /i/{slug}/responses/{uuid}/live/{field_key}/,
// docs/api.md "Media"): after a valid upgrade, any bytes as the respondent's frames (masked
// binary PCM, text such as {"type": "end"}, control frames, fragments, garbage) are read by the
// gateway's WebSocket session and relayed to the responses service's stream, whose messages
// must parse; the server then closes within its deadlines and keeps serving.
#include "tests/fuzz/support/gateway_under_test.h"

namespace {

constexpr std::string_view kUpgrade =
    "GET /i/fuzz/responses/7f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f60/live/voice/?token=t0k3n "
    "HTTP/1.1\r\n"
    "Host: acme.feedback.example\r\n"
    "Upgrade: websocket\r\n"
    "Connection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    "Sec-WebSocket-Version: 13\r\n\r\n";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  static const auto* gateway = new feedback::fuzz::GatewayUnderTest();
  std::string sent(kUpgrade);
  sent.append(feedback::fuzz::asText(data, size));
  const std::string received = gateway->exchange(sent);
  // The upgrade itself is always accepted: the frames are what is tested.
  FUZZ_CHECK(received.starts_with("HTTP/1.1 101"));
  return 0;
}
