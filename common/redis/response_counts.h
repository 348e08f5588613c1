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
// trusts the count only while no submission younger than kPendingMaxAgeMs is pending;
// otherwise, or when there is no count, it asks the responses service (which reads
// PostgreSQL) and raises the count to its answer. So the count never exceeds the truth, and a
// submission is answered only once it is counted or while it keeps its link untrusted.
// Likewise a page read while nothing is pending may be kept under the `changes` token read
// with it, and served while a later read finds the same token, the count the token names
// and nothing pending: every submission answered before that read has settled, which
// replaced the token after its commit. Anything that changes completed responses later must
// settle the same way. Binding the token to the count keeps pages safe beside a responses
// service that predates tokens (during a rolling update): its settlements raise the count
// without replacing the token, which then no longer matches.
// A submission whose settlement is lost (its process died) stops holding its link after
// kPendingMaxAgeMs; the count may then lack it until the next submission into the link.
// So pages are kept at most kMaxPageAgeSeconds after the read that made them valid: below
// kPendingMaxAgeMs by a margin for clocks of hosts that disagree.

#include <string>
#include <string_view>

namespace feedback::responsecount {

// Refreshed by every write; a link quiet for this long is counted again on its next read.
inline constexpr int kTtlSeconds = 24 * 3600;
// Far longer than any submission takes between begin and settle.
inline constexpr int kPendingMaxAgeMs = 10 * 60 * 1000;
// The longest a gateway may keep a page of completed responses (see above).
inline constexpr int kMaxPageAgeSeconds = kPendingMaxAgeMs / 1000 - 60;

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
// (-1: none), ARGV[2] = TTL, ARGV[3] = a new random value, ARGV[4...] = submission ids.
// Raises the count and replaces the token, then ends the submissions.
inline constexpr std::string_view kSettleScript =
    "local count = tonumber(redis.call('GET', KEYS[1]) or '-1') "
    "if tonumber(ARGV[1]) > count then "
    "count = tonumber(ARGV[1]) redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end "
    "redis.call('SET', KEYS[3], count .. ':' .. ARGV[3], 'EX', ARGV[2]) "
    "for i = 4, #ARGV do redis.call('ZREM', KEYS[2], ARGV[i]) end return 1";

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
// changes key; ARGV[1] = now minus kPendingMaxAgeMs (ms). Answers {version or false, count
// or false, submissions that still hold the link, changes token or false}.
inline constexpr std::string_view kReadScript =
    "return {redis.call('GET', KEYS[1]), redis.call('GET', KEYS[2]), "
    "redis.call('ZCOUNT', KEYS[3], ARGV[1], '+inf'), redis.call('GET', KEYS[4])}";

}  // namespace feedback::responsecount
