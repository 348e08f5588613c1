#include "common/core/scopes.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/pipeline/stages.h"

namespace feedback::gateway {

void ScopeStage::decode(const ContextPtr& ctx, Chain chain) {
  const RouteAttributes& route = ctx->route->attributes;
  if (route.access == Access::kApiKey && !route.scope.empty() &&
      !scopes::holds(ctx->caller->scopes(), route.scope)) {
    return chain.reply(errorResponse(
        ApiError(ErrorCode::kInsufficientScope,
                 "This operation needs an API key with scope '" + std::string(route.scope) + "'."),
        ctx->request_id));
  }
  chain.next();
}

}  // namespace feedback::gateway
