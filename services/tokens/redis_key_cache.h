#pragma once

#include "common/redis/redis_client.h"
#include "services/tokens/tokens_store.h"

namespace feedback::tokens {

// KeyCache on the shared Redis. Runs on worker threads, so it may wait for answers.
class RedisKeyCache final : public KeyCache {
 public:
  explicit RedisKeyCache(RedisClient& redis) : redis_(redis) {}
  void markRevoked(const std::string& key_hash) override;
  void forget(const std::vector<std::string>& key_hashes) override;

 private:
  RedisClient& redis_;
};

}  // namespace feedback::tokens
