#include "services/gateway/pipeline/stages.h"

namespace feedback::gateway {

void MediaLinksStage::encode(const ContextPtr& ctx, HttpResponse response, Unwind unwind) {
  if (ctx->route && ctx->route->attributes.signs_media && response.status < 300) {
    const auto& workspace = ctx->caller->workspace();
    response.body = urls_.resolve(std::move(response.body), workspace.host(), workspace.uuid(),
                                  api::unixSeconds());
  }
  unwind.next(std::move(response));
}

}  // namespace feedback::gateway
