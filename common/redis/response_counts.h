#pragma once
// Completed-response counts of links in the shared Redis, so that a link document read from
// any gateway shows every submission already answered:
//   fb:link:{<uuid>}:responses = completed responses of the link (same hash slot as its
//                                version, so both are read in one round trip).
// The responses service raises it after committing a submission and before answering, to a
// count read after that commit; a gateway that finds no value asks the responses service and
// raises it the same way. Counts only grow and raising is monotonic
// (redisvalue::kRaiseScript), so the value is never above the true count and, once a
// submission has been answered, never below a count that includes it.

#include <string>
#include <string_view>

#include "common/redis/monotonic_value.h"

namespace feedback::responsecount {

// Refreshed by every raise; a link quiet for this long is counted again on its next read.
inline constexpr int kTtlSeconds = 24 * 3600;

inline std::string redisKey(std::string_view link_uuid) {
  std::string out = "fb:link:{";
  out += link_uuid;
  out += "}:responses";
  return out;
}

}  // namespace feedback::responsecount
