#pragma once
// The Redis layout of the API-key cache, shared by the gateway (reads, fills) and the tokens
// service (revocation, plan changes). Keys carry a hash tag for Redis Cluster.
//   fb:key:{<sha256 hex>} = "v2:<rate limit>:" + serialized feedback.common.v1.Caller, or
//   "revoked". The rate limit stands in clear so that the rate script can read it in Redis
//   (services/gateway/ratelimit/rate_window_script.h); "v1:" records (no limit) written
//   by older gateways are still read.
// A revoked key's entry is a tombstone that a gateway filling the cache (SET NX) cannot
// overwrite, so a fill racing with a revocation never resurrects the key.

#include <string>
#include <string_view>

#include "feedback/common/v1/common.pb.h"

namespace feedback::keycache {

inline constexpr std::string_view kRevoked = "revoked";
inline constexpr int kRecordTtlSeconds = 300;
inline constexpr int kTombstoneTtlSeconds = 86400;
// Each revocation publishes the key's hash here, so that gateways fail requests with that
// key that are still in flight.
inline constexpr std::string_view kRevocationChannel = "fb:revocations";

inline std::string recordOf(const feedback::common::v1::Caller& caller) {
  std::string out = "v2:";
  out += std::to_string(caller.workspace().rate_limit());
  out += ':';
  caller.AppendToString(&out);
  return out;
}

// False when `record` is not a key record (a tombstone, or unreadable).
inline bool parseRecord(std::string_view record, feedback::common::v1::Caller& caller) {
  if (record.substr(0, 3) == "v1:") {
    record.remove_prefix(3);
  } else if (record.substr(0, 3) == "v2:") {
    record.remove_prefix(3);
    auto colon = record.find(':');
    if (colon == std::string_view::npos) return false;
    record.remove_prefix(colon + 1);
  } else {
    return false;
  }
  return caller.ParseFromArray(record.data(), static_cast<int>(record.size()));
}

inline std::string redisKey(std::string_view key_hash) {
  std::string out = "fb:key:{";
  out += key_hash;
  out += '}';
  return out;
}

}  // namespace feedback::keycache
