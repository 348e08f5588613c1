#include "services/gateway/auth/redis_key_authenticator.h"

#include <catch2/catch.hpp>

#include "services/gateway/auth/host_workspace_resolver.h"

using namespace feedback::gateway;

TEST_CASE("gateway: API key shape is checked before any lookup", "[gateway]") {
  CHECK(looksLikeApiKey("sk_live_abcDEF123"));
  CHECK_FALSE(looksLikeApiKey("sk_live_"));
  CHECK_FALSE(looksLikeApiKey("sk_test_abc"));
  CHECK_FALSE(looksLikeApiKey("sk_live_abc-def"));
  CHECK_FALSE(looksLikeApiKey("sk_live_" + std::string(200, 'a')));
}

TEST_CASE("gateway: public hosts are normalised before any lookup", "[gateway]") {
  CHECK(normalizeHost("Acme.Feedback.Example:8443") == "acme.feedback.example");
  CHECK(normalizeHost("acme.example.") == "acme.example");
  CHECK(normalizeHost("") == "");
  CHECK(normalizeHost("evil host.example") == "");
  CHECK(normalizeHost("a_b.example") == "");
  CHECK(normalizeHost(std::string(254, 'a')) == "");
}
