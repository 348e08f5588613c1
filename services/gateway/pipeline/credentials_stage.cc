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

std::vector<RedisCommand> CredentialsStage::roundTrip(RequestContext& ctx) const {
  std::vector<RedisCommand> commands;
  if (ctx.route->prefetch) {
    ctx.prefetch_sent = ctx.route->prefetch(ctx);
    ctx.prefetch_epoch = reader_.connectionEpoch();
    ctx.prefetch_sent_at = std::chrono::steady_clock::now();
    commands = ctx.prefetch_sent;
  }
  // An API key's admission is its lookup, sent by the KeyAuthenticator.
  if (limiter_ && ctx.route->attributes.access == Access::kPublic) {
    if (auto subject = limiter_->subjectOf(ctx)) {
      if (ctx.route->attributes.rate_window == RateWindow::kReplica) {
        ctx.rate_decided = limiter_->admitHere(subject->name, subject->limit);
        return commands;
      }
      ctx.rate_decided = limiter_->takeGranted(subject->name);
      if (!ctx.rate_decided) {
        ctx.admission_sent = true;
        ctx.admission_sent_at = std::chrono::steady_clock::now();
        commands.push_back(limiter_->admission(subject->name, subject->limit));
        ctx.rate_subject = std::move(subject->name);
      }
    }
  }
  return commands;
}

void CredentialsStage::received(RequestContext& ctx, RedisReplies replies) const {
  // roundTrip() put the admission last (public routes).
  if (ctx.admission_sent && !replies.empty()) {
    ctx.admission = std::move(replies.back());
    replies.pop_back();
  }
  ctx.prefetched = std::move(replies);
  // A reconnection while the read was under way: the answers may come from either connection.
  if (reader_.connectionEpoch() != ctx.prefetch_epoch) ctx.prefetch_epoch = 0;
}

void CredentialsStage::decode(const ContextPtr& ctx, Chain chain) {
  const auto& attributes = ctx->route->attributes;
  if (attributes.access == Access::kAsset) return chain.next();
  if (attributes.access == Access::kPublic) return publicHost(ctx, std::move(chain));
  apiKey(ctx, std::move(chain));
}

void CredentialsStage::apiKey(const ContextPtr& ctx, Chain chain) {
  std::string_view key = bearerToken(ctx->request.header("authorization"));
  if (key.empty()) {
    return chain.reply(
        errorResponse(ApiError(ErrorCode::kAuthenticationRequired), ctx->request_id));
  }
  if (!looksLikeApiKey(key)) {
    return chain.reply(errorResponse(ApiError(ErrorCode::kInvalidApiKey), ctx->request_id));
  }
  ctx->key_hash = keyHash(key);
  ctx->revocation_mark = revoked_.mark();
  ctx->admission_sent_at = std::chrono::steady_clock::now();
  auto commands = roundTrip(*ctx);
  keys_.authenticate(ctx->key_hash, std::move(commands), [this, ctx, chain](AuthOutcome outcome) {
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
    received(*ctx, std::move(outcome.prefetched));
    ctx->admission_sent = outcome.admission_sent;
    ctx->rate_decided = outcome.rate_decided;
    ctx->admission = std::move(outcome.admission);
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
    auto commands = roundTrip(*ctx);
    if (commands.empty()) return chain.next();
    const std::size_t count = commands.size();
    reader_.read(std::move(commands), [this, ctx, chain, count](RedisReplies replies) {
      replies.resize(count);
      received(*ctx, std::move(replies));
      chain.next();
    });
  });
}

}  // namespace feedback::gateway

namespace feedback::gateway {

void CredentialsStage::encode(const ContextPtr& ctx, HttpResponse response, Unwind unwind) {
  if (ctx->key_hash.empty() || ctx->revokes_own_key || response.status == 401) {
    return unwind.next(std::move(response));
  }
  if (revoked_.contains(ctx->key_hash)) {
    // The key was revoked while this request was being processed.
    return unwind.next(errorResponse(ApiError(ErrorCode::kInvalidApiKey), ctx->request_id));
  }
  if (!revoked_.mayHaveMissed(ctx->revocation_mark)) return unwind.next(std::move(response));
  // The channel was down for part of the request: a revocation may have gone unheard.
  keys_.stillValid(
      ctx->key_hash, [ctx, unwind, response = std::move(response)](bool valid) mutable {
        unwind.next(valid ? std::move(response)
                          : errorResponse(ApiError(ErrorCode::kInvalidApiKey), ctx->request_id));
      });
}

}  // namespace feedback::gateway
