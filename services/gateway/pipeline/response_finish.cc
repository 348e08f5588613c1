#include "common/core/log.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/pipeline/stages.h"

namespace feedback::gateway {

void ResponseFinish::encode(const RequestContext& ctx, HttpResponse& response) {
  response.setHeader("X-Request-Id", ctx.request_id);
  metrics_.countResponse(response.status);
  const auto took = std::chrono::steady_clock::now() - ctx.started;
  metrics_.routes.observe(ctx.route, response.status, took);
  if (response.status < 500 && !access_log_) return;
  double ms = std::chrono::duration<double, std::milli>(took).count();
  log::TraceScope traced(ctx.trace.trace_id);
  auto fields = {log::Field("status", response.status), log::Field("method", ctx.request.method),
                 log::Field("path", ctx.request.path()), log::Field("duration_ms", ms),
                 log::Field("request_id", ctx.request_id)};
  if (response.status >= 500) {
    log::warn("request_failed", fields);
  } else {
    log::info("request", fields);
  }
}

}  // namespace feedback::gateway
