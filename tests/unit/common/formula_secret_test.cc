#include <catch2/catch.hpp>
#include <map>

#include "common/crypto.h"
#include "common/formula.h"
#include "common/net_address.h"
#include "common/secret_box.h"

TEST_CASE("formula: precedence, parentheses, unary minus and fields", "[formula]") {
  std::map<std::string, double> values{{"a", 3}, {"b", 4}};
  auto of = [&values](const std::string& k) -> std::optional<double> {
    auto it = values.find(k);
    return it == values.end() ? std::nullopt : std::optional(it->second);
  };
  auto eval = [&of](const char* text) {
    std::string error;
    auto f = feedback::Formula::parse(text, &error);
    REQUIRE(f);
    return f->evaluate(of);
  };
  CHECK(eval("1 + 2 * 3") == 7);
  CHECK(eval("(1 + 2) * 3") == 9);
  CHECK(eval("-a + b") == 1);
  CHECK(eval("a * b / 2") == 6);
  CHECK(eval("2 - -1") == 3);
  CHECK_FALSE(eval("a / 0"));
  CHECK_FALSE(eval("missing + 1"));
  std::string error;
  auto f = feedback::Formula::parse("nps_score * 2 + effort", &error);
  REQUIRE(f);
  CHECK(f->fields() == std::set<std::string>{"effort", "nps_score"});
}

TEST_CASE("formula: malformed input is refused with a reason", "[formula]") {
  for (const char* text :
       {"", "1 +", "(1", "1)", "a b", "2 ** 3", "1..2", "A + 1", "a; b",
        "((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))"}) {
    std::string error;
    INFO(text);
    CHECK_FALSE(feedback::Formula::parse(text, &error));
    CHECK_FALSE(error.empty());
  }
}

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

TEST_CASE("net address: private and loopback hosts", "[net]") {
  for (const char* host : {"localhost", "api.localhost", "127.0.0.1", "10.1.2.3", "172.16.0.1",
                           "172.31.255.255", "192.168.1.1", "169.254.169.254", "0.0.0.0",
                           "100.64.0.1", "[::1]", "::", "fd00::1", "fe80::1", "::ffff:127.0.0.1"}) {
    INFO(host);
    CHECK(feedback::isPrivateHost(host));
  }
  for (const char* host :
       {"example.com", "8.8.8.8", "172.32.0.1", "2001:4860::8888", "[2606:4700::1]"}) {
    INFO(host);
    CHECK_FALSE(feedback::isPrivateHost(host));
  }
}
