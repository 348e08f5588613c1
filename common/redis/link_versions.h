#pragma once
// Versions of link documents in the shared Redis, which keep gateway-side caches of links
// exactly as fresh as the database:
//   fb:link:{<uuid>} = the link's version (links.version, +1 on every change; kDeleted once
//                      deleted).
// The links service raises it before it commits a change (so before it answers); a gateway
// serves a cached document only when the document's own version equals this one, and fills
// a missing entry after reading from the links service. Raising is monotonic
// (redisvalue::kRaiseScript), so writers and fills may arrive in any order.

#include <cstdint>
#include <string>
#include <string_view>

#include "common/redis/monotonic_value.h"

namespace feedback::linkversion {

inline constexpr int64_t kDeleted = INT64_MAX;
inline constexpr int kTtlSeconds = 7 * 24 * 3600;

inline std::string redisKey(std::string_view link_uuid) {
  std::string out = "fb:link:{";
  out += link_uuid;
  out += '}';
  return out;
}

}  // namespace feedback::linkversion
