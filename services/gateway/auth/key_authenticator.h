#pragma once
// How the pipeline learns who calls: an API key becomes a caller (workspace and scopes), a
// public host becomes a workspace, and a route's Redis keys are read. Interfaces, so that the
// pipeline and its degraded modes are tested with fakes; the implementations talk to Redis
// and the tokens service.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/redis/redis_client.h"
#include "feedback/common/v1/common.pb.h"
#include "services/gateway/auth/caller_records.h"
#include "services/gateway/pipeline/redis_round_trip.h"

namespace feedback::gateway {

struct AuthOutcome {
  enum class Kind { kAccepted, kRejected, kUnavailable };
  Kind kind = Kind::kRejected;
  CallerPtr caller = {};
};

class KeyAuthenticator {
 public:
  using Done = std::function<void(AuthOutcome)>;
  virtual ~KeyAuthenticator() = default;
  // Looks up the key whose hash is `key_hash` (keyHash() of a key that looksLikeApiKey) in
  // the request's round trip, and sends it: the key's record is read from the answer at
  // `admission` when the rate limit's admission script reads it (rate_window_script.h), else
  // by a GET added here. `trip` must live until `done` has run (it is the request's, which
  // `done` holds); `done` runs exactly once, on any thread, with the trip's answers in it.
  virtual void authenticate(std::string_view key_hash, RedisRoundTrip& trip,
                            std::optional<RedisRoundTrip::Slot> admission, Done done) = 0;
  // Whether the key is still valid now, asked again when a revocation may have been missed:
  // false only when it is known to be revoked (unknown counts as valid).
  virtual void stillValid(std::string_view key_hash, std::function<void(bool)> done) = 0;
  // The caller the calling loop found `key_hash` valid for (foundValid) no longer ago than a
  // refusal kept here may last (LocalGrants::kMaxRefusal); null otherwise. A request that
  // such a refusal decides then needs no lookup (counted as a lookup skipped).
  virtual CallerPtr recentlyValid(std::string_view key_hash) = 0;
  // `key_hash` was found valid now, for `caller`, by a request its rate limit refused.
  virtual void foundValid(std::string_view key_hash, CallerPtr caller) = 0;
};

// True for a well-formed key: "sk_live_" followed by base62 characters.
bool looksLikeApiKey(std::string_view key);
// Lowercase hex SHA-256 of the key: the only form in which keys are kept or compared.
std::string keyHash(std::string_view key);

struct WorkspaceOutcome {
  enum class Kind { kFound, kUnknown, kUnavailable };
  Kind kind = Kind::kUnknown;
  // Found: the caller of the host's public routes, made once and shared while it is known.
  CallerPtr caller = {};
};

class WorkspaceResolver {
 public:
  using Done = std::function<void(WorkspaceOutcome)>;
  virtual ~WorkspaceResolver() = default;
  // The workspace whose public host `host` (a Host header) is; `done` runs exactly once.
  virtual void resolve(std::string_view host, Done done) = 0;
};

class RedisReader {
 public:
  using Done = std::function<void(RedisReplies)>;
  virtual ~RedisReader() = default;
  // Every command in one round trip; one answer per command.
  virtual void read(std::vector<RedisCommand> commands, Done done) = 0;
  // RedisClient::connectionEpoch of the Redis read by `read` and by the KeyAuthenticator.
  virtual uint64_t connectionEpoch() const = 0;
  // Makes a Lua script callable by its SHA-1 (RedisClient::addScript).
  virtual void addScript(std::string_view text) = 0;
};

}  // namespace feedback::gateway
