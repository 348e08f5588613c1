#pragma once
// API-key authentication: SHA-256 of the key, then the shared Redis key cache, then on a miss
// tokens.VerifyKey (whose answer fills the cache). If Redis is down every key is verified by
// the tokens service, so a revoked key is never accepted.

#include <chrono>

#include "common/redis/redis_client.h"
#include "feedback/tokens/v1/tokens.grpc.pb.h"
#include "services/gateway/auth/key_authenticator.h"
#include "services/gateway/metrics.h"

namespace feedback::gateway {

class RedisKeyAuthenticator final : public KeyAuthenticator {
 public:
  // `loops`: whose threads keep the callers of records parsed (CallerRecords); may be null.
  RedisKeyAuthenticator(RedisClient& redis, feedback::tokens::v1::TokensService::Stub& tokens,
                        Metrics& metrics, std::chrono::milliseconds timeout,
                        IoThreads* loops = nullptr)
      : redis_(redis), tokens_(tokens), metrics_(metrics), timeout_(timeout), records_(loops) {}

  void authenticate(std::string_view key_hash, RedisRoundTrip& trip,
                    std::optional<RedisRoundTrip::Slot> admission, Done done) override;
  void stillValid(std::string_view key_hash, std::function<void(bool)> done) override;
  CallerPtr recentlyValid(std::string_view key_hash) override;
  void foundValid(std::string_view key_hash, CallerPtr caller) override;

 private:
  void verify(std::string key_hash, bool fill_cache, Done done);

  RedisClient& redis_;
  feedback::tokens::v1::TokensService::Stub& tokens_;
  Metrics& metrics_;
  const std::chrono::milliseconds timeout_;
  CallerRecords records_;
};

}  // namespace feedback::gateway
