#include "services/gateway/pipeline/pipeline.h"

#include "common/core/trace.h"

#include <thread>

#include "common/core/log.h"
#include "services/gateway/http/responses.h"

namespace feedback::gateway {
namespace {

// Each request keeps how to answer it beside its context, so that a stage answering from
// any thread needs nothing else.
struct PipelineRequest : RequestContext {
  explicit PipelineRequest(std::shared_ptr<std::atomic<int>> live) : live(std::move(live)) {
    ++*this->live;
  }
  ~PipelineRequest() { --*live; }
  PipelineRequest(const PipelineRequest&) = delete;
  PipelineRequest& operator=(const PipelineRequest&) = delete;

  std::shared_ptr<std::atomic<int>> live;
  Respond respond;
};

}  // namespace

void Chain::next() const {
  pipeline_->run(ctx_, index_ + 1);
}

void Chain::reply(HttpResponse response) const {
  pipeline_->unwind(ctx_, index_, std::move(response));
}

void Unwind::next(HttpResponse response) const {
  pipeline_->unwind(ctx_, index_, std::move(response));
}

void Pipeline::handle(HttpRequest request, Respond respond) const {
  auto ctx = std::make_shared<PipelineRequest>(live_);
  ctx->started = std::chrono::steady_clock::now();
  ctx->deadline = std::chrono::system_clock::now() + backend_timeout_;
  ctx->request = std::move(request);
  ctx->request_id = requestIdFor(ctx->request);
  // The client's trace continues here (this gateway's span), or one starts.
  auto incoming = trace::parse(ctx->request.header("traceparent"));
  ctx->trace = incoming ? trace::child(*incoming) : trace::start();
  ctx->respond = std::move(respond);
  run(ctx, 0);
}

bool Pipeline::waitIdle(std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (*live_ > 0) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

void Pipeline::run(const ContextPtr& ctx, std::size_t index) const {
  if (index >= stages_.size()) {
    // The last stage dispatches; reaching past it means a stage forgot to answer.
    log::error("pipeline_unanswered", {{"request_id", ctx->request_id}});
    return unwind(ctx, stages_.size(),
                  errorResponse(ApiError(ErrorCode::kInternalError), ctx->request_id));
  }
  try {
    stages_[index]->decode(ctx, Chain(*this, ctx, index));
  } catch (const ApiError& e) {
    unwind(ctx, index, errorResponse(e, ctx->request_id));
  } catch (const std::exception& e) {
    log::error("stage_failed", {{"error", e.what()}, {"request_id", ctx->request_id}});
    unwind(ctx, index, errorResponse(ApiError(ErrorCode::kInternalError), ctx->request_id));
  }
}

void Pipeline::unwind(const ContextPtr& ctx, std::size_t index, HttpResponse response) const {
  if (index > 0) {
    return stages_[index - 1]->encode(ctx, std::move(response), Unwind(*this, ctx, index - 1));
  }
  finish_.encode(*ctx, response);
  static_cast<PipelineRequest&>(*ctx).respond(std::move(response));
}

}  // namespace feedback::gateway
