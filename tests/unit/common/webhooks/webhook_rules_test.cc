#include "common/webhooks/webhook_rules.h"

#include <catch2/catch.hpp>

#include "common/core/crypto.h"
#include "common/core/errors.h"

namespace wh = feedback::webhooks;
using feedback::ApiError;
using feedback::ErrorCode;

namespace {

ErrorCode codeOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const ApiError& e) {
    return e.code();
  }
  return ErrorCode::kInternalError;
}

}  // namespace

TEST_CASE("webhook rules: the Standard Webhooks reference signature", "[webhooks]") {
  // The test vector of the Standard Webhooks specification's reference libraries.
  CHECK(wh::sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
                 1614265330,
                 R"({"test": 2432232314})") == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
}

TEST_CASE("webhook rules: a secret without whsec_ signs with its own bytes", "[webhooks]") {
  CHECK(wh::signingKey("s3cret") == "s3cret");
  CHECK(wh::sign("s3cret", "id", 1, "{}") ==
        "v1," + feedback::crypto::base64Encode(feedback::crypto::hmacSha256("s3cret", "id.1.{}")));
}

TEST_CASE("webhook rules: generated secrets are whsec_ and 32 random bytes", "[webhooks]") {
  auto a = wh::generateSecret();
  auto b = wh::generateSecret();
  REQUIRE(a.rfind("whsec_", 0) == 0);
  CHECK(feedback::crypto::base64Decode(a.substr(6))->size() == 32);
  CHECK(a != b);
  CHECK_NOTHROW(wh::checkSecret(a, "secret"));
}

TEST_CASE("webhook rules: secrets", "[webhooks]") {
  CHECK_NOTHROW(wh::checkSecret("s3cret", "secret"));
  CHECK(codeOf([] { wh::checkSecret("", "secret"); }) == ErrorCode::kValidationError);
  CHECK(codeOf([] { wh::checkSecret(std::string(256, 'a'), "secret"); }) ==
        ErrorCode::kValidationError);
  // Accepted: such a secret signs with its own bytes.
  CHECK_NOTHROW(wh::checkSecret("whsec_plain_text_secret", "secret"));
  CHECK(wh::signingKey("whsec_plain_text_secret") == "whsec_plain_text_secret");
  CHECK(wh::signingKey("whsec_AAEC") == std::string("\x00\x01\x02", 3));
}

TEST_CASE("webhook rules: events", "[webhooks]") {
  CHECK(wh::isEventType("response.started"));
  CHECK(wh::isEventType("response.submitted"));
  CHECK_FALSE(wh::isEventType("response.deleted"));
  CHECK_FALSE(wh::isEventType(""));
}

TEST_CASE("webhook rules: URLs are https and public", "[webhooks]") {
  CHECK_NOTHROW(wh::checkUrl("https://hooks.example.com/in?x=1", false, "url"));
  CHECK_NOTHROW(wh::checkUrl("https://8.8.8.8:8443/in", false, "url"));
  for (const char* url :
       {"http://hooks.example.com/in", "ftp://hooks.example.com/", "hooks.example.com/in",
        "https://", "not a url", "https://user@hooks.example.com/", "HTTPS//x"}) {
    INFO(url);
    CHECK(codeOf([&] { wh::checkUrl(url, true, "url"); }) == ErrorCode::kInvalidWebhookUrl);
  }
  CHECK(codeOf([] {
          wh::checkUrl("https://h.example.com/" + std::string(2100, 'a'), true, "url");
        }) == ErrorCode::kInvalidWebhookUrl);
}

TEST_CASE("webhook rules: private targets in every spelling are refused unless allowed",
          "[webhooks]") {
  for (const char* url :
       {"https://127.0.0.1/", "https://[::1]/", "https://10.0.0.1/", "https://100.64.0.1/",
        "https://169.254.169.254/latest/meta-data/", "https://2130706433/", "https://0x7f000001/",
        "https://017700000001/", "https://[::ffff:127.0.0.1]/", "https://localhost:8443/",
        "https://LOCALHOST./", "https://api.localhost/"}) {
    INFO(url);
    CHECK(codeOf([&] { wh::checkUrl(url, false, "url"); }) == ErrorCode::kInvalidWebhookUrl);
    CHECK_NOTHROW(wh::checkUrl(url, true, "url"));
  }
}

// Found by the webhook_url fuzz target: the host "10.127.42%00" decodes to "10.127.42" and a
// NUL, which the spelling check did not take for an address while getaddrinfo, stopping at
// the NUL, reads 10.127.0.42.
TEST_CASE("webhook rules: a host name that percent-encodes anything is refused", "[webhooks]") {
  for (const char* url : {"https://10.127.42%0010./", "https://a%00b.example.com/",
                          "https://hooks%2Eexample.com/", "https://a%20b.example/"}) {
    INFO(url);
    CHECK(codeOf([&] { wh::checkUrl(url, true, "url"); }) == ErrorCode::kInvalidWebhookUrl);
  }
  CHECK_NOTHROW(wh::checkUrl("https://hooks_1.example-host.com./in", true, "url"));
}
