#include "services/gateway/auth/redis_key_authenticator.h"

#include <catch2/catch.hpp>

using namespace feedback::gateway;

TEST_CASE("gateway: API key shape is checked before any lookup", "[gateway]") {
  CHECK(looksLikeApiKey("sk_live_abcDEF123"));
  CHECK_FALSE(looksLikeApiKey("sk_live_"));
  CHECK_FALSE(looksLikeApiKey("sk_test_abc"));
  CHECK_FALSE(looksLikeApiKey("sk_live_abc-def"));
  CHECK_FALSE(looksLikeApiKey("sk_live_" + std::string(200, 'a')));
}
