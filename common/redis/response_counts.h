#pragma once
// Completed-response counts of links in the shared Redis, so that a link document read from
// any gateway shows every submission already answered, and so that gateways may keep pages
// of a link's completed responses:
//   fb:link:{<uuid>}:responses = the link's completed responses (a count read from
//                                PostgreSQL; only ever raised)
//   fb:link:{<uuid>}:pending   = sorted set of the submissions begun and not yet settled,
//                                scored by when they began (milliseconds since the epoch;
//                                hosts' clocks agree far better than kPendingMaxAgeMs)
//   fb:link:{<uuid>}:changes   = "<count>:<random>", replaced by every settlement: pages of
//                                the link's completed responses read while it holds, and
//                                while the count is still <count>, are current
// (the link's keys share its hash slot, so they are read in one round trip).
// The responses service, for each submission: begin (add it to `pending`) before it
// commits, and refuse the submission when that cannot be recorded; after the commit, settle
// (raise the count to one read after the commit, replace `changes`, remove the submission),
// retried in the background if Redis fails then. Settling twice is harmless. A gateway
// trusts the count only while nothing is pending and asks the responses service (which
// reads PostgreSQL) otherwise, or when there is no count; it then raises the count to the
// answer. So the count never exceeds the truth, and a submission is answered only once it
// is counted or while it keeps its link untrusted.
// Every submission commits or fails within kPendingMaxAgeMs of its begin (the responses
// service's statements time out long before). So a count read that started later than that
// after a submission began includes it if it committed: such a read, and only such a read,
// removes the submission from `pending` along with raising the count (kSettleScript,
// kRecoverScript). A submission whose settlement was lost (its process died, its count
// could not be read) thus keeps its link untrusted, and right, until the first count read
// kPendingMaxAgeMs after it began; the set never grows without bound.
// Likewise a page read while nothing is pending may be kept under the `changes` token read
// with it, and served while a later read finds the same token, the count the token names
// and nothing pending: every submission answered before that read has settled, which
// replaced the token after its commit, or been removed by a read that raised the count
// past the token's. Anything that changes completed responses later must settle the same
// way. Binding the token to the count keeps pages safe beside a responses service that
// predates tokens (during a rolling update): its settlements raise the count without
// replacing the token, which then no longer matches. Pages are still kept at most
// kMaxPageAgeSeconds after the read that made them valid, a bound on any error elsewhere.
// A count is only raised, so a Redis restored from an older snapshot would hold counts
// below the truth and trust them: this Redis keeps no snapshot (it only caches PostgreSQL),
// and after a restart the keys are simply absent. For the same reason it must not evict
// keys (maxmemory-policy noeviction) nor be replaced by a lagging replica; and whatever
// raises a count's lifetime raises that of what is still pending, so that a count never
// outlives a submission it lacks.

#include <string>
#include <string_view>

namespace feedback::responsecount {

// Refreshed by every write; a link quiet for this long is counted again on its next read.
inline constexpr int kTtlSeconds = 24 * 3600;
// Far longer than any submission takes between begin and commit (see above).
inline constexpr int kPendingMaxAgeMs = 10 * 60 * 1000;
// The longest a gateway may keep a page of completed responses (see above).
inline constexpr int kMaxPageAgeSeconds = kPendingMaxAgeMs / 1000 - 60;

// The oldest a pending submission may have begun and still be left in `pending` by a count
// read that started at `read_started_ms`; older ones are in the count if they committed.
inline constexpr long long settledBefore(long long read_started_ms) {
  return read_started_ms - kPendingMaxAgeMs;
}

inline std::string countKey(std::string_view link_uuid) {
  std::string out = "fb:link:{";
  out += link_uuid;
  out += "}:responses";
  return out;
}

inline std::string pendingKey(std::string_view link_uuid) {
  std::string out = "fb:link:{";
  out += link_uuid;
  out += "}:pending";
  return out;
}

inline std::string changesKey(std::string_view link_uuid) {
  std::string out = "fb:link:{";
  out += link_uuid;
  out += "}:changes";
  return out;
}

// KEYS[1] = pending key; ARGV[1] = TTL, ARGV[2] = now (ms), ARGV[3...] = submission ids.
inline constexpr std::string_view kBeginScript =
    "for i = 3, #ARGV do redis.call('ZADD', KEYS[1], ARGV[2], ARGV[i]) end "
    "redis.call('EXPIRE', KEYS[1], ARGV[1]) return 1";

// KEYS[1] = count key, KEYS[2] = pending key, KEYS[3] = changes key; ARGV[1] = a count
// (-1: none), ARGV[2] = TTL, ARGV[3] = a new random value, ARGV[4] = settledBefore() of the
// count's read, ARGV[5...] = submission ids. Raises the count and replaces the token, then
// ends the submissions, and with a count those that began before ARGV[4].
inline constexpr std::string_view kSettleScript =
    "local count = tonumber(redis.call('GET', KEYS[1]) or '-1') "
    "if tonumber(ARGV[1]) > count then "
    "count = tonumber(ARGV[1]) redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end "
    "redis.call('SET', KEYS[3], count .. ':' .. ARGV[3], 'EX', ARGV[2]) "
    "for i = 5, #ARGV do redis.call('ZREM', KEYS[2], ARGV[i]) end "
    "if tonumber(ARGV[1]) >= 0 then "
    "redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[4]) end "
    "if redis.call('ZCARD', KEYS[2]) > 0 then redis.call('EXPIRE', KEYS[2], ARGV[2]) end return 1";

// A gateway's count read from PostgreSQL. KEYS[1] = count key, KEYS[2] = pending key;
// ARGV[1] = the count, ARGV[2] = TTL, ARGV[3] = settledBefore() of the read. Raises the count
// and ends the submissions that began before ARGV[3].
inline constexpr std::string_view kRecoverScript =
    "local count = redis.call('GET', KEYS[1]) "
    "if not count or tonumber(count) < tonumber(ARGV[1]) then "
    "redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end "
    "redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[3]) "
    "if redis.call('ZCARD', KEYS[2]) > 0 then redis.call('EXPIRE', KEYS[2], ARGV[2]) end return 1";

// A gateway's token for a link no settlement has given a current one lately (none since a
// loss of Redis data or for kTtlSeconds, or one that names an older count: set before a
// settlement by a responses service from before tokens). KEYS[1] = count key, KEYS[2] =
// changes key; ARGV[1] = the count the gateway read with nothing pending, ARGV[2] = a new
// random value, ARGV[3] = TTL. Only while the count is still the one read and the token
// does not name it: a settlement meanwhile wins.
inline constexpr std::string_view kFirstTokenScript =
    "local count = redis.call('GET', KEYS[1]) "
    "if count ~= ARGV[1] then return 0 end "
    "local token = redis.call('GET', KEYS[2]) "
    "if token and string.sub(token, 1, #count + 1) == count .. ':' then return 0 end "
    "redis.call('SET', KEYS[2], count .. ':' .. ARGV[2], 'EX', ARGV[3]) return 1";

// The gateway's read, one command in its round trip. KEYS[1] = the link's version key
// (common/redis/link_versions.h), KEYS[2] = count key, KEYS[3] = pending key, KEYS[4] =
// changes key. Answers {version or false, count or false, pending submissions, changes
// token or false}.
inline constexpr std::string_view kReadScript =
    "return {redis.call('GET', KEYS[1]), redis.call('GET', KEYS[2]), "
    "redis.call('ZCARD', KEYS[3]), redis.call('GET', KEYS[4])}";

}  // namespace feedback::responsecount
