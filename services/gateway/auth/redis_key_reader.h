#pragma once

#include "common/redis/redis_client.h"
#include "services/gateway/auth/key_authenticator.h"

namespace feedback::gateway {

// RedisReader on the shared Redis: one pipelined round trip.
class PipelinedRedisReader final : public RedisReader {
 public:
  explicit PipelinedRedisReader(RedisClient& redis) : redis_(redis) {}
  void read(std::vector<RedisCommand> commands, Done done) override {
    redis_.pipeline(std::move(commands), std::move(done));
  }
  uint64_t connectionEpoch() const override { return redis_.connectionEpoch(); }
  void addScript(std::string_view text) override { redis_.addScript(text); }

 private:
  RedisClient& redis_;
};

}  // namespace feedback::gateway
