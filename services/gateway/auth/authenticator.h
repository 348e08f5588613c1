#pragma once
// API-key authentication: SHA-256 of the key, then the shared Redis key cache, then on a miss
// tokens.VerifyKey (whose answer fills the cache). If Redis is down every key is verified by
// the tokens service, so a revoked key is never accepted.

#include <functional>
#include <string_view>

#include "common/redis/redis_client.h"
#include "feedback/common/v1/common.pb.h"
#include "feedback/tokens/v1/tokens.grpc.pb.h"
#include "services/gateway/metrics.h"

namespace feedback::gateway {

struct AuthOutcome {
  enum class Kind { kAccepted, kRejected, kUnavailable };
  Kind kind = Kind::kRejected;
  feedback::common::v1::Caller caller;
  // The answer for the extra key read with the API key; nullopt when Redis did not answer.
  std::optional<RedisReply> prefetched;
  // SHA-256 hex of the key presented.
  std::string key_hash;
};

class Authenticator {
 public:
  using Done = std::function<void(AuthOutcome)>;
  Authenticator(RedisClient& redis, feedback::tokens::v1::TokensService::Stub& tokens,
                Metrics& metrics)
      : redis_(redis), tokens_(tokens), metrics_(metrics) {}

  // `done` runs exactly once, on a Redis or gRPC thread. `prefetch_key`, when not empty, is
  // read in the same Redis round trip as the key record.
  void authenticate(std::string_view api_key, std::string prefetch_key, Done done);

 private:
  void verify(std::string key_hash, bool fill_cache, std::optional<RedisReply> prefetched,
              Done done);

  RedisClient& redis_;
  feedback::tokens::v1::TokensService::Stub& tokens_;
  Metrics& metrics_;
};

// True for a well-formed key: "sk_live_" followed by base62 characters.
bool looksLikeApiKey(std::string_view key);

}  // namespace feedback::gateway
