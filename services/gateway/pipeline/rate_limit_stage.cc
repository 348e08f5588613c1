#include "common/core/log.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/pipeline/stages.h"

namespace feedback::gateway {
namespace {

int64_t wholeSeconds(int64_t ms) {
  return ms <= 0 ? 0 : (ms + 999) / 1000;
}

}  // namespace

void setRateLimitHeaders(const RateDecision& decision, HttpResponse& response) {
  const std::string limit = std::to_string(decision.limit);
  const std::string remaining = std::to_string(decision.remaining);
  const std::string reset = std::to_string(wholeSeconds(decision.reset_ms));
  response.setHeader("RateLimit-Limit", limit);
  response.setHeader("RateLimit-Remaining", remaining);
  response.setHeader("RateLimit-Reset", reset);
  // The IETF draft's structured fields (draft-ietf-httpapi-ratelimit-headers).
  response.setHeader("RateLimit-Policy",
                     "\"default\";q=" + limit + ";w=" + std::to_string(kRateWindowSeconds));
  response.setHeader("RateLimit", "\"default\";r=" + remaining + ";t=" + reset);
  if (!decision.admitted) {
    response.setHeader("Retry-After",
                       std::to_string(std::max<int64_t>(1, wholeSeconds(decision.retry_after_ms))));
  }
}

void RateLimitStage::decode(const ContextPtr& ctx, Chain chain) {
  if (ctx->route->attributes.access == Access::kAsset) return chain.next();
  if (ctx->rate.decided) return apply(ctx, chain, ctx->rate.decided);
  const RateLimiter::Answer& answer = ctx->rate.answer;
  if (ctx->rate.admission) {
    // The usual case needs nothing else: counted in the credentials' round trip.
    if (answer.outcome == RateLimiter::Outcome::kCounted) {
      const bool keyed = ctx->route->attributes.access == Access::kApiKey;
      return apply(ctx, chain,
                   limiter_.decide(answer, keyed ? ctx->key.hash : ctx->rate.subject, 0,
                                   ctx->redis.sentAt()));
    }
  }
  auto subject = limiter_.subjectOf(*ctx);
  if (!subject) return chain.next();
  if (ctx->rate.admission && answer.outcome == RateLimiter::Outcome::kNoAnswer) {
    return apply(ctx, chain,
                 limiter_.decide(answer, subject->name, subject->limit, ctx->redis.sentAt()));
  }
  limiter_.admit(
      std::move(subject->name), subject->limit,
      [this, ctx, chain](std::optional<RateDecision> decision) { apply(ctx, chain, decision); });
}

void RateLimitStage::apply(const ContextPtr& ctx, const Chain& chain,
                           std::optional<RateDecision> decision) {
  if (!decision) {
    return chain.reply(errorResponse(
        ApiError(ErrorCode::kServiceUnavailable, "Rate limits cannot be checked now."),
        ctx->request_id));
  }
  ctx->rate.decision = *decision;
  if (decision->admitted) return chain.next();
  HttpResponse refused = errorResponse(ApiError(ErrorCode::kRateLimited), ctx->request_id);
  setRateLimitHeaders(*decision, refused);
  chain.reply(std::move(refused));
}

void RateLimitStage::encode(const ContextPtr& ctx, HttpResponse response, Unwind unwind) {
  if (ctx->rate.decision) setRateLimitHeaders(*ctx->rate.decision, response);
  unwind.next(std::move(response));
}

}  // namespace feedback::gateway
