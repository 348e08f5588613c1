#include "common/core/ascii.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/pipeline/stages.h"
#include "services/gateway/ratelimit/rate_limiter.h"

namespace feedback::gateway {

std::string_view bearerToken(std::string_view authorization) {
  authorization = trim(authorization, kHttpWhitespace);
  auto space = authorization.find(' ');
  if (space == std::string_view::npos) return {};
  if (!equalsIgnoringAsciiCase(authorization.substr(0, space), "Bearer")) return {};
  return trim(authorization.substr(space + 1), kHttpWhitespace);
}

bool isJsonMediaType(std::string_view content_type) {
  return equalsIgnoringAsciiCase(
      trim(content_type.substr(0, content_type.find(';')), kHttpWhitespace), "application/json");
}

void CredentialsStage::assemble(RequestContext& ctx) const {
  if (ctx.route->prefetch) ctx.redis.addRouteReads(ctx.route->prefetch(ctx));
  if (limiter_) limiter_->prepare(ctx);
}

void CredentialsStage::decode(const ContextPtr& ctx, Chain chain) {
  const auto& attributes = ctx->route->attributes;
  if (attributes.access == Access::kAsset) return chain.next();
  if (attributes.access == Access::kPublic) return publicHost(ctx, std::move(chain));
  apiKey(ctx, std::move(chain));
}

namespace {

// Whether the request's rate limit refuses it: by a refusal kept here, or by its admission.
bool refused(const RequestContext& ctx) {
  if (ctx.rate.decided) return !ctx.rate.decided->admitted;
  return ctx.rate.answer.outcome == AdmissionAnswer::Outcome::kCounted &&
         !ctx.rate.answer.decision.admitted;
}

}  // namespace

void CredentialsStage::apiKey(const ContextPtr& ctx, Chain chain) {
  std::string_view key = bearerToken(ctx->request.header("authorization"));
  if (key.empty()) {
    return chain.reply(
        errorResponse(ApiError(ErrorCode::kAuthenticationRequired), ctx->request_id));
  }
  if (!looksLikeApiKey(key)) {
    return chain.reply(errorResponse(ApiError(ErrorCode::kInvalidApiKey), ctx->request_id));
  }
  ctx->key.hash = keyHash(key);
  ctx->key.revocation_mark = revoked_.mark();
  assemble(*ctx);
  // Refused by a refusal kept here, for a key this loop found valid within the refusal's
  // longest life: 429 needs no lookup. A revocation since comes by its channel, and the way
  // out (encode) answers 401 for it, or asks Redis when the channel may have missed one.
  if (ctx->rate.decided && !ctx->rate.decided->admitted) {
    if (auto caller = keys_.recentlyValid(ctx->key.hash)) {
      ctx->caller = std::move(caller);
      return chain.next();
    }
  }
  keys_.authenticate(
      ctx->key.hash, ctx->redis, ctx->rate.admission, [this, ctx, chain](AuthOutcome outcome) {
        switch (outcome.kind) {
          case AuthOutcome::Kind::kRejected:
            return chain.reply(errorResponse(ApiError(ErrorCode::kInvalidApiKey), ctx->request_id));
          case AuthOutcome::Kind::kUnavailable:
            return chain.reply(errorResponse(
                ApiError(ErrorCode::kServiceUnavailable, "Authentication is unavailable."),
                ctx->request_id));
          case AuthOutcome::Kind::kAccepted:
            break;
        }
        ctx->caller = std::move(outcome.caller);
        RateLimiter::received(*ctx);
        // The key's validity, found now, spares the lookups of the requests a refusal kept
        // here decides (above). Admitted requests keep nothing.
        if (refused(*ctx)) keys_.foundValid(ctx->key.hash, ctx->caller);
        chain.next();
      });
}

void CredentialsStage::publicHost(const ContextPtr& ctx, Chain chain) {
  hosts_.resolve(clients_.hostOf(ctx->request), [this, ctx, chain](WorkspaceOutcome outcome) {
    switch (outcome.kind) {
      case WorkspaceOutcome::Kind::kUnknown:
        return chain.reply(errorResponse(
            ApiError(ErrorCode::kNotFound, "No feedback form is published at this host."),
            ctx->request_id));
      case WorkspaceOutcome::Kind::kUnavailable:
        return chain.reply(errorResponse(
            ApiError(ErrorCode::kServiceUnavailable, "The workspace cannot be looked up now."),
            ctx->request_id));
      case WorkspaceOutcome::Kind::kFound:
        break;
    }
    ctx->caller = std::move(outcome.caller);
    assemble(*ctx);
    if (ctx->redis.empty()) return chain.next();
    reader_.read(ctx->redis.send(reader_.connectionEpoch()),
                 [this, ctx, chain](RedisReplies replies) {
                   ctx->redis.receive(std::move(replies), reader_.connectionEpoch());
                   RateLimiter::received(*ctx);
                   chain.next();
                 });
  });
}

}  // namespace feedback::gateway

namespace feedback::gateway {

void CredentialsStage::encode(const ContextPtr& ctx, HttpResponse response, Unwind unwind) {
  if (ctx->key.hash.empty() || ctx->key.revokes_own_key || response.status == 401) {
    return unwind.next(std::move(response));
  }
  if (revoked_.contains(ctx->key.hash)) {
    // The key was revoked while this request was being processed.
    return unwind.next(errorResponse(ApiError(ErrorCode::kInvalidApiKey), ctx->request_id));
  }
  if (!revoked_.mayHaveMissed(ctx->key.revocation_mark)) {
    return unwind.next(std::move(response));
  }
  // The channel was down for part of the request: a revocation may have gone unheard.
  keys_.stillValid(
      ctx->key.hash, [ctx, unwind, response = std::move(response)](bool valid) mutable {
        unwind.next(valid ? std::move(response)
                          : errorResponse(ApiError(ErrorCode::kInvalidApiKey), ctx->request_id));
      });
}

}  // namespace feedback::gateway
