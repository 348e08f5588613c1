#include "services/gateway/http/responses.h"
#include "services/gateway/pipeline/stages.h"

namespace feedback::gateway {

void ResponseTokenStage::decode(const ContextPtr& ctx, Chain chain) {
  if (!ctx->route->attributes.response_token) return chain.next();
  if (!isUsableResponseToken(ctx->request.header("x-response-token"))) {
    return chain.reply(
        errorResponse(ApiError(ErrorCode::kNotFound, "No such response."), ctx->request_id));
  }
  chain.next();
}

}  // namespace feedback::gateway
