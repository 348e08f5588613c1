#pragma once
// Completed-response counts of links in the shared Redis, so that a link document read from
// any gateway shows every submission already answered:
//   fb:link:{<uuid>}:responses = hash {count: completed responses,
//                                      pending: submissions begun and not yet settled}
// (same hash slot as the link's version, so both are read in one round trip).
// The responses service, for each submission: begin (pending + 1) before it commits, and
// refuses the submission when that cannot be recorded; after the commit, settle with a count
// read after it (count raised, pending - 1), retried in the background if Redis fails then.
// A gateway trusts `count` only while nothing is pending; otherwise, or when there is no
// count, it asks the responses service (which reads PostgreSQL) and fills `count` in. Counts
// only grow and every write raises, never lowers, so `count` never exceeds the truth; and a
// submission is answered only once it is counted, or while it keeps its link pending.
// A submission whose process dies between begin and settle leaves its link pending: reads
// stay exact, from PostgreSQL, until the key expires.

#include <string>
#include <string_view>

namespace feedback::responsecount {

// Refreshed by every write; a link quiet for this long is counted again on its next read.
inline constexpr int kTtlSeconds = 24 * 3600;

inline std::string redisKey(std::string_view link_uuid) {
  std::string out = "fb:link:{";
  out += link_uuid;
  out += "}:responses";
  return out;
}

// KEYS[1] = the key, ARGV[1] = submissions begun, ARGV[2] = TTL.
inline constexpr std::string_view kBeginScript =
    "redis.call('HINCRBY', KEYS[1], 'pending', ARGV[1]) "
    "redis.call('EXPIRE', KEYS[1], ARGV[2]) return 1";

// KEYS[1] = the key, ARGV[1] = a count (-1: none), ARGV[2] = submissions to settle,
// ARGV[3] = TTL. Raises `count` to ARGV[1]; lowers `pending` by ARGV[2], not below 0.
inline constexpr std::string_view kSettleScript =
    "local count = tonumber(redis.call('HGET', KEYS[1], 'count') or '-1') "
    "if tonumber(ARGV[1]) > count then redis.call('HSET', KEYS[1], 'count', ARGV[1]) end "
    "local pending = tonumber(redis.call('HGET', KEYS[1], 'pending') or '0') "
    "local settled = math.min(pending, tonumber(ARGV[2])) "
    "if settled > 0 then redis.call('HINCRBY', KEYS[1], 'pending', -settled) end "
    "redis.call('EXPIRE', KEYS[1], ARGV[3]) return 1";

// The gateway's read: HMGET <key> count pending.
inline constexpr std::string_view kCountField = "count";
inline constexpr std::string_view kPendingField = "pending";

}  // namespace feedback::responsecount
