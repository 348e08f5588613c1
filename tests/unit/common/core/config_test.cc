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
