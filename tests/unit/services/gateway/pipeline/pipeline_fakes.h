#pragma once
// Fakes of what the pipeline's credentials and rate limit stages talk to: keys as the tokens
// service and the key cache would answer them, public hosts, and Redis, whose rate windows
// follow SlidingWindow (the arithmetic the Redis script is checked against).

#include <map>
#include <set>

#include "services/gateway/auth/key_authenticator.h"
#include "services/gateway/ratelimit/rate_limiter.h"
#include "services/gateway/ratelimit/sliding_window.h"

namespace feedback::gateway::testing {

inline constexpr const char* kGoodKey = "sk_live_good";
inline constexpr const char* kReadOnlyKey = "sk_live_readonly";

inline std::optional<RedisReply> stringReply(std::string value) {
  RedisReply r;
  r.type = RedisReply::Type::kString;
  r.str = std::move(value);
  return r;
}

// Redis's side of the rate windows: EVALSHA admissions answered as the script would, with a
// clock the test moves. A keyed admission (two keys) finds its limit in `key_limits`, by
// the record's Redis key; absent, it answers {-1} as the script does for an uncached key.
struct FakeRateWindows {
  int64_t now_ms = 1'700'000'000'000;
  std::map<std::string, SlidingWindow> windows;
  std::map<std::string, int> key_limits;
  int admissions = 0;

  static bool isAdmission(const RedisCommand& command) { return command.at(0) == "EVALSHA"; }
  std::optional<RedisReply> answer(const RedisCommand& command) {
    ++admissions;
    const int keys = std::stoi(command.at(2));
    int limit = 0;
    if (keys == 2) {
      auto it = key_limits.find(command.at(4));
      if (it == key_limits.end()) return array({-1});
      limit = it->second;
    } else {
      limit = std::stoi(command.at(3 + keys));
    }
    const std::size_t grant_min = 3 + static_cast<std::size_t>(keys) + 3;
    const bool grants = command.size() > grant_min && !command[grant_min].empty();
    RateDecision d = windows[command.at(3)].admit(now_ms, limit, grants);
    // As the script answers: the record (nil here) between the decision and the grant.
    auto reply = array({d.admitted ? 1 : 0, d.limit, d.remaining, d.reset_ms, d.retry_after_ms});
    reply->elements.emplace_back();
    reply->elements.push_back(*array({d.granted}).value().elements.begin());
    reply->elements.push_back(*array({d.second_left_ms}).value().elements.begin());
    return reply;
  }
  static std::optional<RedisReply> array(std::initializer_list<long long> values) {
    RedisReply r;
    r.type = RedisReply::Type::kArray;
    for (auto v : values) {
      RedisReply e;
      e.type = RedisReply::Type::kInteger;
      e.integer = v;
      r.elements.push_back(e);
    }
    return r;
  }
};

// Keys as the tokens service and Redis would answer them; `tokens_down` and `redis_down`
// stand for the degraded modes the real authenticator reports. The round trip it is given is
// answered from `redis`, and an admission (when rate limits are on) by `windows`.
class FakeAuthenticator final : public KeyAuthenticator {
 public:
  bool tokens_down = false;
  bool redis_down = false;
  std::map<std::string, std::string> redis;
  std::vector<std::vector<RedisCommand>> asked;  // each trip's commands but the key's lookup
  // The Redis connection's epoch, which a reconnection during the lookup raises.
  uint64_t* redis_epoch = nullptr;
  bool reconnects = false;

  FakeRateWindows* windows = nullptr;
  int rate_limit = 30;
  // Keys revoked without the channel telling (stillValid's answer), and how often it asked.
  std::set<std::string> revoked_quietly;
  int rechecks = 0;
  // Keys found valid by a refused request (foundValid), which recentlyValid then names.
  std::map<std::string, CallerPtr> found_valid;

  void authenticate(std::string_view key_hash, RedisRoundTrip& trip,
                    std::optional<RedisRoundTrip::Slot> admission, Done done) override {
    const auto record = admission ? *admission : trip.add({"GET", "key:" + std::string(key_hash)});
    const auto commands = trip.send(*redis_epoch);
    std::vector<RedisCommand> others;
    for (RedisRoundTrip::Slot slot = 0; slot < commands.size(); ++slot) {
      if (slot != record) others.push_back(commands[slot]);
    }
    asked.push_back(others);
    if (reconnects) ++*redis_epoch;
    RedisReplies replies;
    for (RedisRoundTrip::Slot slot = 0; slot < commands.size(); ++slot) {
      if (redis_down) {
        replies.emplace_back();
      } else if (slot == record) {
        replies.push_back(admission ? windows->answer(commands[slot]) : RedisReply{});
      } else {
        auto it = redis.find(commands[slot].at(1));
        replies.push_back(it == redis.end() ? std::optional(RedisReply{})
                                            : stringReply(it->second));
      }
    }
    trip.receive(std::move(replies), *redis_epoch);
    if (tokens_down) return done(AuthOutcome{AuthOutcome::Kind::kUnavailable});
    AuthOutcome outcome;
    if (key_hash == keyHash(kGoodKey) || key_hash == keyHash(kReadOnlyKey)) {
      outcome.kind = AuthOutcome::Kind::kAccepted;
      auto caller = std::make_shared<feedback::common::v1::Caller>();
      caller->mutable_workspace()->set_uuid("ws-1");
      caller->mutable_workspace()->set_rate_limit(rate_limit);
      caller->add_scopes("links:read");
      if (key_hash == keyHash(kGoodKey)) caller->add_scopes("links:write");
      outcome.caller = std::move(caller);
    }
    done(std::move(outcome));
  }
  void stillValid(std::string_view key_hash, std::function<void(bool)> done) override {
    ++rechecks;
    done(revoked_quietly.count(std::string(key_hash)) == 0);
  }
  CallerPtr recentlyValid(std::string_view key_hash) override {
    auto it = found_valid.find(std::string(key_hash));
    return it == found_valid.end() ? nullptr : it->second;
  }
  void foundValid(std::string_view key_hash, CallerPtr caller) override {
    found_valid[std::string(key_hash)] = std::move(caller);
  }
};

class FakeResolver final : public WorkspaceResolver {
 public:
  bool down = false;
  void resolve(std::string_view host, Done done) override {
    if (down) return done(WorkspaceOutcome{WorkspaceOutcome::Kind::kUnavailable});
    if (host != "acme.feedback.test") return done(WorkspaceOutcome{});
    feedback::common::v1::Workspace workspace;
    workspace.set_uuid("ws-public");
    done(WorkspaceOutcome{WorkspaceOutcome::Kind::kFound, callerOfWorkspace(workspace)});
  }
};

class FakeReader final : public RedisReader {
 public:
  bool down = false;
  std::map<std::string, std::string> values;
  uint64_t epoch = 1;
  bool reconnects = false;  // during each read
  FakeRateWindows* windows = nullptr;
  std::vector<std::string> scripts;

  void read(std::vector<RedisCommand> commands, Done done) override {
    if (reconnects) ++epoch;
    RedisReplies replies;
    for (const auto& command : commands) {
      if (down) {
        replies.emplace_back();
      } else if (windows && FakeRateWindows::isAdmission(command)) {
        replies.push_back(windows->answer(command));
      } else {
        auto it = values.find(command.at(1));
        replies.push_back(it == values.end() ? std::optional(RedisReply{})
                                             : stringReply(it->second));
      }
    }
    done(std::move(replies));
  }
  uint64_t connectionEpoch() const override { return epoch; }
  void addScript(std::string_view text) override { scripts.emplace_back(text); }
};

}  // namespace feedback::gateway::testing
