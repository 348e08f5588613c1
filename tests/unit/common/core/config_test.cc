#include "common/core/config.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>

using feedback::ConfigError;
using feedback::Env;

namespace {

Env envWith(std::map<std::string, std::string> values) {
  auto shared = std::make_shared<std::map<std::string, std::string>>(std::move(values));
  return Env([shared](const char* name) -> const char* {
    auto it = shared->find(name);
    return it == shared->end() ? nullptr : it->second.c_str();
  });
}

}  // namespace

TEST_CASE("config: absent and empty variables take their defaults", "[config]") {
  Env env = envWith({{"EMPTY", ""}});
  CHECK(env.text("MISSING", "fallback") == "fallback");
  CHECK(env.text("EMPTY", "fallback") == "fallback");
  CHECK(env.integer("MISSING", 8080, 0, 65535) == 8080);
  CHECK(env.boolean("MISSING", true));
  CHECK(env.number("MISSING", 1.5, 0, 10) == 1.5);
  CHECK_NOTHROW(env.check());
}

TEST_CASE("config: valid values are parsed", "[config]") {
  Env env = envWith({{"PORT", "9000"},
                     {"FLAG", "false"},
                     {"SCALE", "0.01"},
                     {"ADDR", "tokens:50051"},
                     {"REDIS", "redis://127.0.0.1:6390/0"}});
  CHECK(env.integer("PORT", 1, 0, 65535) == 9000);
  CHECK_FALSE(env.boolean("FLAG", true));
  CHECK(env.number("SCALE", 1.0, 0, 100) == Approx(0.01));
  auto addr = env.address("ADDR", "x:1");
  CHECK(addr.host == "tokens");
  CHECK(addr.port == 50051);
  auto redis = env.redisUrl("REDIS", "redis://x:1");
  CHECK(redis.host == "127.0.0.1");
  CHECK(redis.port == 6390);
  CHECK_NOTHROW(env.check());
}

TEST_CASE("config: every bad value is reported at once, by name", "[config]") {
  Env env = envWith({{"PORT", "80x"},
                     {"THREADS", "0"},
                     {"FLAG", "maybe"},
                     {"ADDR", "no-port"},
                     {"REDIS", "http://localhost:6379"},
                     {"SCALE", "-1"}});
  env.integer("PORT", 8080, 0, 65535);
  env.integer("THREADS", 2, 1, 64);
  env.boolean("FLAG", false);
  env.address("ADDR", "x:1");
  env.redisUrl("REDIS", "redis://x:1");
  env.number("SCALE", 1.0, 0.0, 100.0);
  env.requiredText("DATABASE_URL");
  try {
    env.check();
    FAIL("check() accepted bad configuration");
  } catch (const ConfigError& e) {
    std::string message = e.what();
    for (const char* name :
         {"PORT='80x'", "THREADS='0'", "FLAG='maybe'", "ADDR='no-port'",
          "REDIS='http://localhost:6379'", "SCALE='-1'", "DATABASE_URL is required"}) {
      INFO(name);
      CHECK(message.find(name) != std::string::npos);
    }
  }
}

TEST_CASE("config: host:port parsing rejects out-of-range ports", "[config]") {
  feedback::HostPort out;
  CHECK(feedback::parseHostPort("127.0.0.1:1", out));
  CHECK_FALSE(feedback::parseHostPort("127.0.0.1:0", out));
  CHECK_FALSE(feedback::parseHostPort("127.0.0.1:65536", out));
  CHECK_FALSE(feedback::parseHostPort(":80", out));
  CHECK_FALSE(feedback::parseHostPort("host", out));
}

TEST_CASE("config: a gRPC peer is one name or a list of IPv4 replicas", "[config]") {
  std::string target;
  CHECK(feedback::parseGrpcTarget("links:50052", target));
  CHECK(target == "dns:///links:50052");
  CHECK(feedback::parseGrpcTarget("127.0.0.1:5001,127.0.0.1:5002", target));
  CHECK(target == "ipv4:127.0.0.1:5001,127.0.0.1:5002");
  CHECK_FALSE(feedback::parseGrpcTarget("links:50052,links-2:50052", target));
  CHECK_FALSE(feedback::parseGrpcTarget("127.0.0.1:5001,", target));
  CHECK_FALSE(feedback::parseGrpcTarget("", target));
  CHECK_FALSE(feedback::parseGrpcTarget("127.0.0.1", target));

  Env env = envWith({{"GOOD", "10.0.0.1:1,10.0.0.2:2"}, {"BAD", "a:1,b:2"}});
  CHECK(env.grpcTarget("GOOD", "x:1") == "ipv4:10.0.0.1:1,10.0.0.2:2");
  CHECK(env.grpcTarget("MISSING", "tokens:50051") == "dns:///tokens:50051");
  env.grpcTarget("BAD", "x:1");
  CHECK_THROWS_WITH(env.check(), Catch::Contains("BAD='a:1,b:2'"));
}

TEST_CASE("config: a choice takes one of its values, and names them when refused", "[config]") {
  Env env = envWith({{"MODE", "closed"}, {"BAD", "sideways"}});
  CHECK(env.choice("MODE", "open", {"open", "closed"}) == "closed");
  CHECK(env.choice("MISSING", "open", {"open", "closed"}) == "open");
  CHECK(env.choice("BAD", "open", {"open", "closed"}) == "open");
  try {
    env.check();
    FAIL("a value outside the choices passed");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()).find("BAD='sideways' must be one of open, closed") !=
          std::string::npos);
  }
}

TEST_CASE("config: the shared readers of PUBLIC_SCHEME and SECRETS_KEY check their values",
          "[config]") {
  Env good = envWith(
      {{"PUBLIC_SCHEME", "http"}, {"SECRETS_KEY", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}});
  CHECK(feedback::publicScheme(good) == "http");
  CHECK_FALSE(feedback::secretsKey(good).empty());
  CHECK_NOTHROW(good.check());
  Env bad = envWith({{"PUBLIC_SCHEME", "ftp"}, {"SECRETS_KEY", "not base64 of 32 bytes"}});
  feedback::publicScheme(bad);
  feedback::secretsKey(bad);
  try {
    bad.check();
    FAIL("bad settings passed");
  } catch (const ConfigError& e) {
    const std::string message = e.what();
    CHECK(message.find("PUBLIC_SCHEME='ftp'") != std::string::npos);
    CHECK(message.find("SECRETS_KEY must be base64 of 32 bytes") != std::string::npos);
  }
  Env absent = Env::empty();
  CHECK(feedback::publicScheme(absent) == "https");
  feedback::secretsKey(absent);
  CHECK_THROWS_AS(absent.check(), ConfigError);
}

TEST_CASE("config: every setting read is described once, with its default and its check",
          "[config]") {
  Env env = Env::empty();
  env.integer("PORT", 8080, 0, 65535, {"the port"});
  env.integer("PORT", 8080, 0, 65535, {"read again"});
  env.integer("THREADS", 2, 1, 256, {"threads", "the number of cores"});
  env.text("KEY", "", {.meaning = "a key", .accepted = "base64 of 32 bytes"});
  env.requiredText("URL", {"the database"});
  env.number("SCALE", 1.0, 0.0, 1000.0, {"a scale"});
  const auto& s = env.settings();
  REQUIRE(s.size() == 5);
  CHECK((s[0].name == "PORT" && s[0].fallback == "8080" && s[0].meaning == "the port"));
  CHECK(s[0].accepted == "an integer from 0 to 65535");
  CHECK(s[1].fallback == "the number of cores");
  CHECK(s[2].accepted == "base64 of 32 bytes");
  CHECK((s[3].required && s[3].fallback.empty()));
  CHECK((s[4].fallback == "1" && s[4].accepted == "a number from 0 to 1000"));
  CHECK(
      env.settingsJson().find(
          R"({"name":"PORT","default":"8080","accepted":"an integer from 0 to 65535","meaning":"the port","required":false})") !=
      std::string::npos);
}

TEST_CASE("config: a number out of range names its range as the description does", "[config]") {
  Env env = envWith({{"SCALE", "2000"}});
  CHECK(env.number("SCALE", 1.0, 0.0, 1000.0) == 1.0);
  try {
    env.check();
    FAIL("a number out of range passed");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()).find("SCALE='2000' must be a number from 0 to 1000") !=
          std::string::npos);
  }
}
