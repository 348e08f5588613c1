#pragma once

#include "common/redis/redis_client.h"
#include "services/gateway/auth/key_authenticator.h"

namespace feedback::gateway {

// KeyReader on the shared Redis: one pipelined round trip of GETs.
class RedisKeyReader final : public KeyReader {
 public:
  explicit RedisKeyReader(RedisClient& redis) : redis_(redis) {}
  void read(std::vector<std::string> keys, Done done) override {
    std::vector<std::vector<std::string>> commands;
    commands.reserve(keys.size());
    for (auto& key : keys) commands.push_back({"GET", std::move(key)});
    redis_.pipeline(std::move(commands), std::move(done));
  }

 private:
  RedisClient& redis_;
};

}  // namespace feedback::gateway
