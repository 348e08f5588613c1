#pragma once
// The Redis layout of the API-key cache, shared by the gateway (reads, fills) and the tokens
// service (revocation, plan changes). Keys carry a hash tag for Redis Cluster.
//   fb:key:{<sha256 hex>} = "v1:" + serialized feedback.common.v1.Caller, or "revoked".
// A revoked key's entry is a tombstone that a gateway filling the cache (SET NX) cannot
// overwrite, so a fill racing with a revocation never resurrects the key.

#include <string>
#include <string_view>

namespace feedback::keycache {

inline constexpr std::string_view kRecordPrefix = "v1:";
inline constexpr std::string_view kRevoked = "revoked";
inline constexpr int kRecordTtlSeconds = 300;
inline constexpr int kTombstoneTtlSeconds = 86400;
// Each revocation publishes the key's hash here, so that gateways fail requests with that
// key that are still in flight.
inline constexpr std::string_view kRevocationChannel = "fb:revocations";

inline std::string redisKey(std::string_view key_hash) {
  std::string out = "fb:key:{";
  out += key_hash;
  out += '}';
  return out;
}

}  // namespace feedback::keycache
