#pragma once
// Rate limits shared by every gateway replica (docs/api.md "Plans and rate limits"): API keys
// by their workspace's rate, public intake calls by client address and link. The count
// normally joins the round trip that reads the key record and the route's keys (the
// credentials stage sends admission commands built here); admit() is the extra trip
// made only when that one could not count (a key record not cached yet). When Redis does not
// answer, decisions are this replica's own (fail open) or refusals (fail closed), and each
// change between shared and degraded decisions is logged once.

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/redis/redis_script.h"
#include "services/gateway/auth/key_authenticator.h"
#include "services/gateway/http/client_address.h"
#include "services/gateway/metrics.h"
#include "services/gateway/ratelimit/local_grants.h"
#include "services/gateway/ratelimit/local_rate_limiter.h"
#include "services/gateway/ratelimit/sliding_window.h"

namespace feedback::gateway {

struct RequestContext;

enum class RateFailMode { kOpen, kClosed };

struct RateLimitSettings {
  bool enabled = true;
  RateFailMode fail_mode = RateFailMode::kOpen;
  // Public intake calls per minute per client address and link; 0: not limited.
  int intake_per_minute = 60;
  std::size_t local_subjects = 100000;
};

class RateLimiter {
 public:
  using Clock = std::function<int64_t()>;  // Unix milliseconds
  RateLimiter(RedisReader& redis, Metrics& metrics, RateLimitSettings settings,
              ClientAddresses clients = ClientAddresses(), Clock clock = systemClock);

  const RateLimitSettings& settings() const { return settings_; }

  // Who a request counts against: an API key (by its hash; its limit comes with the caller),
  // or on public routes the client address at a link; nullopt when it is not limited.
  struct Subject {
    std::string name;
    int limit = 0;
  };
  std::optional<Subject> subjectOf(const RequestContext& ctx) const;
  // While the request's round trip is assembled (CredentialsStage; `ctx.key.hash` set on
  // keyed routes): decides the request here when it can (ctx.rate.decided: a grant or refusal
  // Redis made before, local_grants.h; or a route counted in the replica's own window),
  // otherwise adds its admission to the trip (ctx.rate.admission). On keyed routes the
  // admission is also the key's lookup: the script reads the key's record, and the limit in
  // it.
  void prepare(RequestContext& ctx);

  using Outcome = AdmissionAnswer::Outcome;
  using Answer = AdmissionAnswer;
  // Reads Redis's answer to an admission command.
  static Answer read(const std::optional<RedisReply>& reply);
  // Once the round trip is back: the admission's answer, read into ctx.rate.answer.
  static void received(RequestContext& ctx);

  // A decision from an admission's answer: counted, the decision (its grant or refusal kept
  // for `subject`; `sent`: when the admission was sent); no answer, the degraded one (nullopt
  // in fail-closed mode); uncounted, nullopt (call admit()).
  std::optional<RateDecision> decide(const Answer& answer, std::string_view subject, int limit,
                                     std::chrono::steady_clock::time_point sent);
  // Counts `subject` in a round trip of its own; `done` gets the decision, or nullopt when
  // Redis does not answer in fail-closed mode. Runs `done` on the Redis client's thread.
  void admit(std::string subject, int limit, std::function<void(std::optional<RateDecision>)> done);

 private:
  static int64_t systemClock();
  std::optional<RateDecision> degraded(std::string_view subject, int limit);
  // A decision made here from what Redis granted or refused before (local_grants.h).
  std::optional<RateDecision> takeGranted(std::string_view subject);
  // A call of a route counted in this replica's window alone (RateWindow::kReplica).
  RateDecision admitHere(std::string_view subject, int limit);
  // The admission of a request with an API key: the limit is read from its cached record.
  std::vector<std::string> keyAdmission(std::string_view key_hash) const;
  // The admission of `subject` against `limit` requests per minute.
  std::vector<std::string> admission(std::string_view subject, int limit) const;
  void shared(const RateDecision& decision);

  RedisReader& redis_;
  Metrics& metrics_;
  const RateLimitSettings settings_;
  const ClientAddresses clients_;
  const Clock clock_;
  const RedisScript script_;
  const std::string window_seconds_;
  const std::string grant_min_, grant_share_, grant_max_;
  LocalRateLimiter local_;    // while Redis does not answer
  LocalRateLimiter replica_;  // RateWindow::kReplica
  LocalGrants grants_;
  std::atomic<bool> degraded_{false};
};

}  // namespace feedback::gateway
