#include "common/core/secret_box.h"

#include <catch2/catch.hpp>

#include "common/core/crypto.h"

TEST_CASE("secret box: seals, opens, and refuses tampering or another key", "[crypto]") {
  auto box =
      feedback::SecretBox::fromBase64Key(feedback::crypto::base64Encode(std::string(32, 'k')));
  auto other =
      feedback::SecretBox::fromBase64Key(feedback::crypto::base64Encode(std::string(32, 'o')));
  REQUIRE(box);
  REQUIRE(other);
  std::string sealed = box->seal("whsec_secret");
  CHECK(sealed.rfind("v1:", 0) == 0);
  CHECK(sealed.find("whsec_secret") == std::string::npos);
  CHECK(box->seal("whsec_secret") != sealed);  // fresh nonce each time
  CHECK(box->open(sealed) == "whsec_secret");
  CHECK_FALSE(other->open(sealed));
  std::string tampered = sealed;
  tampered[tampered.size() - 5] = tampered[tampered.size() - 5] == 'A' ? 'B' : 'A';
  CHECK_FALSE(box->open(tampered));
  CHECK_FALSE(feedback::SecretBox::fromBase64Key("c2hvcnQ="));
}
