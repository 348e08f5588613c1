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
// Erasures lower a count (docs/api.md "Erasure and retention"), which a count only ever
// raised cannot show: a read that started before an erasure committed would raise it back. An
// erasure is therefore a pending entry like a submission (begun before it commits, with an id
// that starts with kRemovalPrefix) whose settlement (kRemovedScript) deletes the count, replaces
// the token, and records in `lowered` when it committed:
//   fb:link:{<uuid>}:lowered   = milliseconds since the epoch after the link's last erasure
//                                committed, kept kPendingMaxAgeMs
// A count read (kSettleScript, kRecoverScript) that started before `lowered` (plus
// kClockSkewMarginMs, as reads and erasures are timed on different hosts) is not recorded:
// it may hold erased responses. Until a read that started later records one, the link has no
// count and gateways ask the responses service. An erasure whose settlement was lost is
// trimmed from `pending` like a submission, by a read that started kPendingMaxAgeMs after it
// began; such a trim does what its settlement would have done, with that read as its time.
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

inline std::string loweredKey(std::string_view link_uuid) {
  std::string out = "fb:link:{";
  out += link_uuid;
  out += "}:lowered";
  return out;
}

// Reads and erasures are timed by different hosts' clocks, which agree to far better than this.
inline constexpr int kClockSkewMarginMs = 2000;
// How long `lowered` is kept: a count read older than this is never recorded.
inline constexpr int kLoweredTtlSeconds = kPendingMaxAgeMs / 1000;
// Pending entries of erasures start with this (the scripts below test for it); those of
// submissions never do.
inline constexpr std::string_view kRemovalPrefix = "rm:";

inline std::string removalId(std::string_view response_uuid) {
  std::string out(kRemovalPrefix);
  out += response_uuid;
  return out;
}

// KEYS[1] = pending key; ARGV[1] = TTL, ARGV[2] = now (ms), ARGV[3...] = submission ids.
inline constexpr std::string_view kBeginScript =
    "for i = 3, #ARGV do redis.call('ZADD', KEYS[1], ARGV[2], ARGV[i]) end "
    "redis.call('EXPIRE', KEYS[1], ARGV[1]) return 1";

// The part of kSettleScript and kRecoverScript that records a count read, given KEYS[1] =
// count key, KEYS[2] = pending key, and the Lua locals `lowered_key`, `read` (the
// count), `started` (when its read started, ms), `cutoff` (settledBefore() of it), `margin`,
// `ttl`, `lowered_ttl` and `count` (the count Redis holds, -1 for none). A read older than
// `lowered` is kept (a settlement retried that long after its read) does nothing: an erasure
// may have committed since and its `lowered` expired. Otherwise pending entries that began
// before the cutoff end; an erasure among them (its settlement was lost) drops the count as
// kRemovedScript would, at `started` (`lowered` is only ever raised). Then the count is raised,
// unless an erasure committed after (or about when) its read started: a count recorded since
// was read after that, and holds every entry that ended here. `count` is left as Redis then
// holds it.
#define FEEDBACK_RECORD_COUNT_READ                                                         \
  "local clock = redis.call('TIME') "                                                      \
  "if started > tonumber(clock[1]) * 1000 - tonumber(lowered_ttl) * 1000 + margin then "   \
  "local ended = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. cutoff) "             \
  "local lowered = tonumber(redis.call('GET', lowered_key) or '-1') "                      \
  "for _, id in ipairs(ended) do if string.sub(id, 1, 3) == 'rm:' then "                   \
  "redis.call('DEL', KEYS[1]) count = -1 "                                                 \
  "if started > lowered then lowered = started "                                           \
  "redis.call('SET', lowered_key, started, 'EX', lowered_ttl) end break end end "          \
  "if #ended > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. cutoff) end " \
  "if (lowered < 0 or started > lowered + margin) and read > count then "                  \
  "count = read redis.call('SET', KEYS[1], read, 'EX', ttl) end end "

// KEYS[1] = count key, KEYS[2] = pending key, KEYS[3] = changes key, KEYS[4] = lowered key;
// ARGV[1] = a count (-1: none), ARGV[2] = TTL, ARGV[3] = a new random value, ARGV[4] = when
// the count's read started (ms), ARGV[5] = settledBefore() of it, ARGV[6] = kClockSkewMarginMs,
// ARGV[7] = kLoweredTtlSeconds, ARGV[8...] = submission ids. Records the count (see above) and
// replaces the token, then ends the submissions.
inline constexpr std::string_view kSettleScript =
    "local lowered_key = KEYS[4] "
    "local read = tonumber(ARGV[1]) local ttl = ARGV[2] local started = tonumber(ARGV[4]) "
    "local cutoff = tonumber(ARGV[5]) local margin = tonumber(ARGV[6]) "
    "local lowered_ttl = ARGV[7] "
    "local count = tonumber(redis.call('GET', KEYS[1]) or '-1') "
    "if read >= 0 then " FEEDBACK_RECORD_COUNT_READ
    "end "
    "redis.call('SET', KEYS[3], count .. ':' .. ARGV[3], 'EX', ttl) "
    "for i = 8, #ARGV do redis.call('ZREM', KEYS[2], ARGV[i]) end "
    "if redis.call('ZCARD', KEYS[2]) > 0 then redis.call('EXPIRE', KEYS[2], ttl) end return 1";

// A gateway's count read from PostgreSQL. KEYS[1] = count key, KEYS[2] = pending key, KEYS[3]
// = lowered key; ARGV[1] = the count, ARGV[2] = TTL,
// ARGV[3] = when the read started (ms), ARGV[4] = settledBefore() of it, ARGV[5] =
// kClockSkewMarginMs, ARGV[6] = kLoweredTtlSeconds. Records the count (see above).
inline constexpr std::string_view kRecoverScript =
    "local lowered_key = KEYS[3] "
    "local read = tonumber(ARGV[1]) local ttl = ARGV[2] local started = tonumber(ARGV[3]) "
    "local cutoff = tonumber(ARGV[4]) local margin = tonumber(ARGV[5]) "
    "local lowered_ttl = ARGV[6] "
    "local count = tonumber(redis.call('GET', KEYS[1]) or '-1') " FEEDBACK_RECORD_COUNT_READ
    "if redis.call('ZCARD', KEYS[2]) > 0 then redis.call('EXPIRE', KEYS[2], ttl) end return 1";

// Erasures that committed (see above). KEYS[1] = count key, KEYS[2] = pending key, KEYS[3] =
// changes key, KEYS[4] = lowered key; ARGV[1] = TTL, ARGV[2] = a new random value, ARGV[3] =
// now (ms, after the commit), ARGV[4] = kLoweredTtlSeconds, ARGV[5...] = the erasures' ids.
// The token names no count: pages kept before are never served again.
inline constexpr std::string_view kRemovedScript =
    "redis.call('DEL', KEYS[1]) "
    "redis.call('SET', KEYS[3], 'erased:' .. ARGV[2], 'EX', ARGV[1]) "
    "local lowered = tonumber(redis.call('GET', KEYS[4]) or '-1') "
    "if tonumber(ARGV[3]) > lowered then redis.call('SET', KEYS[4], ARGV[3], 'EX', ARGV[4]) end "
    "for i = 5, #ARGV do redis.call('ZREM', KEYS[2], ARGV[i]) end "
    "if redis.call('ZCARD', KEYS[2]) > 0 then redis.call('EXPIRE', KEYS[2], ARGV[1]) end return 1";
#undef FEEDBACK_RECORD_COUNT_READ

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
