#include "common/core/text.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/pipeline/stages.h"

namespace feedback::gateway {

void ResponseTokenStage::decode(const ContextPtr& ctx, Chain chain) {
  if (!ctx->route->attributes.response_token) return chain.next();
  // A token that is no text cannot be any response's (and could not be sent to the responses
  // service in a protobuf string): answered like a missing one.
  const auto token = ctx->request.header("x-response-token");
  if (token.empty() || !isValidUtf8(token)) {
    return chain.reply(
        errorResponse(ApiError(ErrorCode::kNotFound, "No such response."), ctx->request_id));
  }
  chain.next();
}

}  // namespace feedback::gateway
