#include "services/tokens/redis_key_cache.h"

#include "common/core/errors.h"
#include "common/core/log.h"
#include "common/redis/key_cache.h"

namespace feedback::tokens {
namespace {

void requireAnswer(const std::optional<RedisReply>& reply, std::string_view what) {
  if (!reply || reply->type == RedisReply::Type::kError) {
    log::warn("key_cache_unavailable", {{"operation", what}});
    // The database change is undone or reported: a key must never stay usable in the cache
    // after its revocation has been acknowledged.
    throw ApiError(ErrorCode::kServiceUnavailable, "The key cache is unavailable.");
  }
}

}  // namespace

void RedisKeyCache::markRevoked(const std::string& key_hash) {
  requireAnswer(
      redis_.commandSync({"SET", keycache::redisKey(key_hash), std::string(keycache::kRevoked),
                          "EX", std::to_string(keycache::kTombstoneTtlSeconds)}),
      "mark_revoked");
}

void RedisKeyCache::forget(const std::vector<std::string>& key_hashes) {
  // One DEL per key: the keys live in different Redis Cluster slots.
  for (const auto& hash : key_hashes) {
    requireAnswer(redis_.commandSync({"DEL", keycache::redisKey(hash)}), "forget");
  }
}

}  // namespace feedback::tokens
