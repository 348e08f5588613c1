#include "services/gateway/http/responses.h"
#include "services/gateway/pipeline/stages.h"

namespace feedback::gateway {

void RouteStage::decode(const ContextPtr& ctx, Chain chain) {
  auto resolution = routes_.resolve(ctx->request.method, ctx->request.path());
  switch (resolution.outcome) {
    case Routes::Outcome::kNotFound:
      return chain.reply(
          errorResponse(ApiError(ErrorCode::kNotFound, "No such resource."), ctx->request_id));
    case Routes::Outcome::kRedirect: {
      std::string location(ctx->request.path());
      location += '/';
      if (!ctx->request.query().empty()) {
        location += '?';
        location += ctx->request.query();
      }
      HttpResponse response = messageResponse("Moved Permanently: every path ends with '/'.");
      response.status = 301;
      response.setHeader("Location", std::move(location));
      return chain.reply(std::move(response));
    }
    case Routes::Outcome::kMethodNotAllowed: {
      HttpResponse response =
          errorResponse(ApiError(ErrorCode::kMethodNotAllowed,
                                 "Method " + ctx->request.method + " is not allowed here."),
                        ctx->request_id);
      response.setHeader("Allow", resolution.allow);
      return chain.reply(std::move(response));
    }
    case Routes::Outcome::kFound:
      break;
  }
  ctx->route = &resolution.route->entry;
  ctx->params = std::move(resolution.params);
  if (const auto longest = ctx->route->attributes.longest_call; longest.count() > 0) {
    ctx->deadline = std::chrono::system_clock::now() + longest;
  }
  chain.next();
}

}  // namespace feedback::gateway
