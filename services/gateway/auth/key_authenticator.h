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

namespace feedback::gateway {

using RedisReplies = std::vector<std::optional<RedisReply>>;
using RedisCommand = std::vector<std::string>;

struct AuthOutcome {
  enum class Kind { kAccepted, kRejected, kUnavailable };
  Kind kind = Kind::kRejected;
  feedback::common::v1::Caller caller;
  // The answers to the commands sent with the API key's lookup, one per command; nullopt
  // when Redis did not answer.
  RedisReplies prefetched;
  // SHA-256 hex of the key presented.
  std::string key_hash;
};

class KeyAuthenticator {
 public:
  using Done = std::function<void(AuthOutcome)>;
  virtual ~KeyAuthenticator() = default;
  // `done` runs exactly once, on any thread. `prefetch` goes in the same Redis round trip as
  // the lookup of the key record.
  virtual void authenticate(std::string_view api_key, std::vector<RedisCommand> prefetch,
                            Done done) = 0;
};

struct WorkspaceOutcome {
  enum class Kind { kFound, kUnknown, kUnavailable };
  Kind kind = Kind::kUnknown;
  feedback::common::v1::Workspace workspace;
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
};

}  // namespace feedback::gateway
