#include "common/core/crypto.h"

#include <catch2/catch.hpp>
#include <set>

namespace crypto = feedback::crypto;

TEST_CASE("crypto: SHA-256 of known inputs", "[crypto]") {
  CHECK(crypto::sha256Hex("") ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(crypto::sha256Hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("crypto: HMAC-SHA256 matches RFC 4231 test case 2", "[crypto]") {
  CHECK(crypto::toHex(crypto::hmacSha256("Jefe", "what do ya want for nothing?")) ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST_CASE("crypto: base64 round trip and padding", "[crypto]") {
  CHECK(crypto::base64Encode("") == "");
  CHECK(crypto::base64Encode("f") == "Zg==");
  CHECK(crypto::base64Encode("fo") == "Zm8=");
  CHECK(crypto::base64Encode("foo") == "Zm9v");
  for (std::string s : {"", "f", "fo", "foo", "foob", "fooba", "foobar"}) {
    auto decoded = crypto::base64Decode(crypto::base64Encode(s));
    REQUIRE(decoded);
    CHECK(*decoded == s);
  }
  std::string binary = crypto::randomBytes(32);
  CHECK(crypto::base64Decode(crypto::base64Encode(binary)) == binary);
  CHECK_FALSE(crypto::base64Decode("abc"));
  CHECK_FALSE(crypto::base64Decode("!!!!"));
}

TEST_CASE("crypto: random base62 strings have the alphabet and length asked for", "[crypto]") {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    std::string s = crypto::randomBase62(40);
    REQUIRE(s.size() == 40);
    for (char c : s) CHECK(std::isalnum(static_cast<unsigned char>(c)));
    seen.insert(s);
  }
  CHECK(seen.size() == 100);
}

TEST_CASE("crypto: constant-time comparison", "[crypto]") {
  CHECK(crypto::constantTimeEquals("abc", "abc"));
  CHECK_FALSE(crypto::constantTimeEquals("abc", "abd"));
  CHECK_FALSE(crypto::constantTimeEquals("abc", "abcd"));
}
