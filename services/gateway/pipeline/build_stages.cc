#include "services/gateway/pipeline/stages.h"

namespace feedback::gateway {

std::vector<std::unique_ptr<Stage>> buildStages(StageParts parts) {
  std::vector<std::unique_ptr<Stage>> stages;
  stages.push_back(std::make_unique<RouteStage>(parts.routes));
  stages.push_back(std::make_unique<ResponseTokenStage>());
  stages.push_back(std::move(parts.credentials));
  if (parts.limiter) stages.push_back(std::make_unique<RateLimitStage>(*parts.limiter));
  stages.push_back(std::make_unique<ScopeStage>());
  if (parts.media_urls) stages.push_back(std::make_unique<MediaLinksStage>(*parts.media_urls));
  if (parts.idempotency) stages.push_back(std::move(parts.idempotency));
  stages.push_back(std::make_unique<DispatchStage>(parts.loops));
  return stages;
}

}  // namespace feedback::gateway
