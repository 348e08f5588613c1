#include "common/core/crypto.h"

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <set>
#include <thread>

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

TEST_CASE("crypto: random bytes never repeat, across pool refills, sizes and threads", "[crypto]") {
  std::set<std::string> seen;
  // 16 * 1000 bytes: several refills of the per-thread pool.
  for (int i = 0; i < 1000; ++i) seen.insert(crypto::randomBytes(16));
  std::string other;
  std::thread([&other] { other = crypto::randomBytes(16); }).join();
  seen.insert(other);
  const std::string large = crypto::randomBytes(10000);  // more than a pool holds
  CHECK(large.size() == 10000);
  seen.insert(large.substr(0, 16));
  CHECK(seen.size() == 1002);
  CHECK(crypto::randomBytes(0).empty());
}

TEST_CASE("crypto: a forked child does not hand out its parent's random bytes", "[crypto]") {
  crypto::randomBytes(16);  // the pool now holds unused bytes
  int pipe_ends[2];
  REQUIRE(pipe(pipe_ends) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const std::string bytes = crypto::randomBytes(16);
    _exit(write(pipe_ends[1], bytes.data(), bytes.size()) == 16 ? 0 : 1);
  }
  const std::string parent = crypto::randomBytes(16);
  char from_child[16];
  REQUIRE(read(pipe_ends[0], from_child, sizeof from_child) == 16);
  int status = 0;
  waitpid(child, &status, 0);
  close(pipe_ends[0]);
  close(pipe_ends[1]);
  CHECK(std::string(from_child, sizeof from_child) != parent);
}

TEST_CASE("crypto: constant-time comparison", "[crypto]") {
  CHECK(crypto::constantTimeEquals("abc", "abc"));
  CHECK_FALSE(crypto::constantTimeEquals("abc", "abd"));
  CHECK_FALSE(crypto::constantTimeEquals("abc", "abcd"));
}

TEST_CASE("base64url: no padding, - and _ for + and /") {
  CHECK(feedback::crypto::base64UrlEncode("") == "");
  CHECK(feedback::crypto::base64UrlEncode("f") == "Zg");
  CHECK(feedback::crypto::base64UrlEncode("\xfb\xff\xbf") == "-_-_");
  CHECK(feedback::crypto::base64UrlEncode(std::string(32, '\0')).size() == 43);
}
