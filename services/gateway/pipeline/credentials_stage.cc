#include "services/gateway/http/responses.h"
#include "services/gateway/pipeline/stages.h"

namespace feedback::gateway {
namespace {

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

}  // namespace

std::string_view bearerToken(std::string_view authorization) {
  authorization = trim(authorization);
  auto space = authorization.find(' ');
  if (space == std::string_view::npos) return {};
  if (!equalsIgnoreCase(authorization.substr(0, space), "Bearer")) return {};
  return trim(authorization.substr(space + 1));
}

bool isJsonMediaType(std::string_view content_type) {
  return equalsIgnoreCase(trim(content_type.substr(0, content_type.find(';'))), "application/json");
}

std::vector<RedisCommand> CredentialsStage::routePrefetch(RequestContext& ctx) const {
  if (!ctx.route->prefetch) return {};
  ctx.prefetch_sent = ctx.route->prefetch(ctx);
  ctx.prefetch_epoch = reader_.connectionEpoch();
  ctx.prefetch_sent_at = std::chrono::steady_clock::now();
  return ctx.prefetch_sent;
}

void CredentialsStage::received(RequestContext& ctx, RedisReplies replies) const {
  ctx.prefetched = std::move(replies);
  // A reconnection while the read was under way: the answers may come from either connection.
  if (reader_.connectionEpoch() != ctx.prefetch_epoch) ctx.prefetch_epoch = 0;
}

void CredentialsStage::decode(const ContextPtr& ctx, Chain chain) {
  const auto& attributes = ctx->route->attributes;
  if (attributes.access == Access::kPublic) {
    if (attributes.response_token && ctx->request.header("x-response-token").empty()) {
      return chain.reply(
          errorResponse(ApiError(ErrorCode::kNotFound, "No such response."), ctx->request_id));
    }
    return publicHost(ctx, std::move(chain));
  }
  apiKey(ctx, std::move(chain));
}

void CredentialsStage::apiKey(const ContextPtr& ctx, Chain chain) {
  std::string_view key = bearerToken(ctx->request.header("authorization"));
  if (key.empty()) {
    return chain.reply(
        errorResponse(ApiError(ErrorCode::kAuthenticationRequired), ctx->request_id));
  }
  auto prefetch = routePrefetch(*ctx);
  keys_.authenticate(key, std::move(prefetch), [this, ctx, chain](AuthOutcome outcome) {
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
    ctx->key_hash = std::move(outcome.key_hash);
    ctx->caller = std::move(outcome.caller);
    received(*ctx, std::move(outcome.prefetched));
    chain.next();
  });
}

void CredentialsStage::publicHost(const ContextPtr& ctx, Chain chain) {
  hosts_.resolve(ctx->request.header("host"), [this, ctx, chain](WorkspaceOutcome outcome) {
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
    *ctx->caller.mutable_workspace() = std::move(outcome.workspace);
    auto prefetch = routePrefetch(*ctx);
    if (prefetch.empty()) return chain.next();
    const std::size_t count = prefetch.size();
    reader_.read(std::move(prefetch), [this, ctx, chain, count](RedisReplies replies) {
      replies.resize(count);
      received(*ctx, std::move(replies));
      chain.next();
    });
  });
}

}  // namespace feedback::gateway
