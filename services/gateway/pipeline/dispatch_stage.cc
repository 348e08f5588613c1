#include "common/core/log.h"
#include "services/gateway/http/json_input.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/pipeline/stages.h"

namespace feedback::gateway {
namespace {

bool carriesBody(std::string_view method) {
  return method == "POST" || method == "PUT" || method == "PATCH";
}

}  // namespace

void DispatchStage::decode(const ContextPtr& ctx, Chain chain) {
  const std::size_t loop = ctx->request.io_loop;
  if (!loops_ || loops_->current() == loop) return dispatch(ctx, chain);
  loops_->post(loop, [ctx, chain = std::move(chain)] { dispatch(ctx, chain); });
}

void DispatchStage::dispatch(const ContextPtr& ctx, const Chain& chain) {
  // What a handler logs belongs to the request's trace.
  log::TraceScope traced(ctx->trace.trace_id);
  try {
    if (carriesBody(ctx->request.method) && ctx->route->attributes.raw_body_limit == 0) {
      bool has_type = ctx->request.hasHeader("content-type");
      if ((has_type || !ctx->request.body.empty()) &&
          !isJsonMediaType(ctx->request.header("content-type"))) {
        throw ApiError(ErrorCode::kUnsupportedMediaType);
      }
      ctx->body = parseJsonObject(ctx->request.body);
    }
    ctx->route->run(ctx, [chain](HttpResponse response) { chain.reply(std::move(response)); });
  } catch (const ApiError& e) {
    chain.reply(errorResponse(e, ctx->request_id));
  } catch (const std::exception& e) {
    log::error("handler_failed", {{"error", e.what()}, {"request_id", ctx->request_id}});
    chain.reply(errorResponse(ApiError(ErrorCode::kInternalError), ctx->request_id));
  }
}

}  // namespace feedback::gateway
