#include "services/gateway/ratelimit/rate_limiter.h"

#include "common/core/log.h"
#include "common/redis/key_cache.h"
#include "services/gateway/pipeline/request_context.h"
#include "services/gateway/ratelimit/rate_window_script.h"

namespace feedback::gateway {

RateLimiter::RateLimiter(RedisReader& redis, Metrics& metrics, RateLimitSettings settings,
                         ClientAddresses clients, Clock clock)
    : redis_(redis),
      metrics_(metrics),
      settings_(settings),
      clients_(std::move(clients)),
      clock_(std::move(clock)),
      script_(ratewindow::kScript),
      window_seconds_(std::to_string(kRateWindowSeconds)),
      grant_min_(std::to_string(kGrantMinLimit)),
      grant_share_(std::to_string(kGrantShare)),
      grant_max_(std::to_string(kGrantMax)),
      local_(settings.local_subjects),
      replica_(settings.local_subjects) {
  redis_.addScript(script_.text());
}

int64_t RateLimiter::systemClock() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::optional<RateLimiter::Subject> RateLimiter::subjectOf(const RequestContext& ctx) const {
  if (!settings_.enabled) return std::nullopt;
  if (ctx.route->attributes.access == Access::kApiKey) {
    return Subject{ctx.key.hash, ctx.caller->workspace().rate_limit()};
  }
  if (settings_.intake_per_minute <= 0) return std::nullopt;
  // Public routes name their link first (/i/{slug}/...).
  std::string name = "intake:" + ctx.caller->workspace().uuid() + ':';
  if (!ctx.params.empty()) name += ctx.params.front();
  name += ':';
  name += clients_.of(ctx.request);
  return Subject{std::move(name), settings_.intake_per_minute};
}

void RateLimiter::prepare(RequestContext& ctx) {
  if (ctx.route->attributes.access == Access::kApiKey) {
    if (!settings_.enabled) return;
    ctx.rate.decided = takeGranted(ctx.key.hash);
    if (!ctx.rate.decided) ctx.rate.admission = ctx.redis.add(keyAdmission(ctx.key.hash));
    return;
  }
  auto subject = subjectOf(ctx);
  if (!subject) return;
  if (ctx.route->attributes.rate_window == RateWindow::kReplica) {
    ctx.rate.decided = admitHere(subject->name, subject->limit);
    return;
  }
  ctx.rate.decided = takeGranted(subject->name);
  if (ctx.rate.decided) return;
  ctx.rate.admission = ctx.redis.add(admission(subject->name, subject->limit));
  ctx.rate.subject = std::move(subject->name);
}

std::optional<RateDecision> RateLimiter::takeGranted(std::string_view subject) {
  auto decision = grants_.take(subject, std::chrono::steady_clock::now());
  if (decision) shared(*decision);
  return decision;
}

RateDecision RateLimiter::admitHere(std::string_view subject, int limit) {
  RateDecision decision = replica_.admit(subject, limit, clock_());
  ++(decision.admitted ? metrics_.rate_admitted_replica : metrics_.rate_limited_replica);
  return decision;
}

std::vector<std::string> RateLimiter::keyAdmission(std::string_view key_hash) const {
  return script_.call({ratewindow::redisKey(key_hash), keycache::redisKey(key_hash)},
                      {"", window_seconds_, "", grant_min_, grant_share_, grant_max_});
}

std::vector<std::string> RateLimiter::admission(std::string_view subject, int limit) const {
  return script_.call({ratewindow::redisKey(subject)}, {std::to_string(limit), window_seconds_, "",
                                                        grant_min_, grant_share_, grant_max_});
}

void RateLimiter::received(RequestContext& ctx) {
  if (ctx.rate.admission) ctx.rate.answer = read(ctx.redis.answer(*ctx.rate.admission));
}

RateLimiter::Answer RateLimiter::read(const std::optional<RedisReply>& reply) {
  if (!reply || reply->type != RedisReply::Type::kArray || reply->elements.empty()) return {};
  const auto& e = reply->elements;
  if (e[0].type == RedisReply::Type::kInteger && e[0].integer < 0) return {Outcome::kUncounted};
  if (e.size() < 5) return {};
  for (std::size_t i = 0; i < 5; ++i) {
    if (e[i].type != RedisReply::Type::kInteger) return {};
  }
  RateDecision decision;
  decision.admitted = e[0].integer == 1;
  decision.limit = static_cast<int>(e[1].integer);
  decision.remaining = static_cast<int>(e[2].integer);
  decision.reset_ms = e[3].integer;
  decision.retry_after_ms = e[4].integer;
  if (e.size() >= 8 && e[6].type == RedisReply::Type::kInteger &&
      e[7].type == RedisReply::Type::kInteger) {
    decision.granted = e[6].integer;
    decision.second_left_ms = e[7].integer;
  }
  return {Outcome::kCounted, decision};
}

void RateLimiter::shared(const RateDecision& decision) {
  ++(decision.admitted ? metrics_.rate_admitted_shared : metrics_.rate_limited_shared);
  if (degraded_.load(std::memory_order_relaxed) && degraded_.exchange(false)) {
    metrics_.rate_degraded = 0;
    log::warn("rate_limits_shared_again", {});
  }
}

std::optional<RateDecision> RateLimiter::degraded(std::string_view subject, int limit) {
  if (!degraded_.load(std::memory_order_relaxed) && !degraded_.exchange(true)) {
    metrics_.rate_degraded = 1;
    log::warn("rate_limits_degraded",
              {{"mode", settings_.fail_mode == RateFailMode::kOpen ? "local" : "closed"}});
  }
  if (settings_.fail_mode == RateFailMode::kClosed) {
    ++metrics_.rate_unavailable;
    return std::nullopt;
  }
  RateDecision decision = local_.admit(subject, limit, clock_());
  ++(decision.admitted ? metrics_.rate_admitted_local : metrics_.rate_limited_local);
  return decision;
}

std::optional<RateDecision> RateLimiter::decide(const Answer& answer, std::string_view subject,
                                                int limit,
                                                std::chrono::steady_clock::time_point sent) {
  switch (answer.outcome) {
    case Outcome::kCounted:
      shared(answer.decision);
      grants_.keep(subject, answer.decision, sent, std::chrono::steady_clock::now());
      return answer.decision;
    case Outcome::kNoAnswer:
      return degraded(subject, limit);
    case Outcome::kUncounted:
      break;
  }
  return std::nullopt;
}

void RateLimiter::admit(std::string subject, int limit,
                        std::function<void(std::optional<RateDecision>)> done) {
  const auto sent = std::chrono::steady_clock::now();
  redis_.read({admission(subject, limit)},
              [this, subject, limit, sent, done = std::move(done)](RedisReplies replies) {
                Answer answer = read(replies.empty() ? std::nullopt : replies[0]);
                // Counted with an explicit limit, "uncounted" cannot come back; treat it as no
                // answer.
                if (answer.outcome == Outcome::kUncounted) answer.outcome = Outcome::kNoAnswer;
                done(decide(answer, subject, limit, sent));
              });
}

}  // namespace feedback::gateway
