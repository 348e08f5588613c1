#pragma once
// The request pipeline, after Envoy's filter chain: every request passes the same explicit
// stages in order (resolve the route, establish the caller, check the scope, dispatch to the
// route's handler), and every answer passes the finish stage. A stage either lets the next one
// run or answers, now or later (a stage waiting on I/O resumes the chain when its answer
// arrives); a stage asks the route's declared attributes, not the path, what applies to it.

#include <atomic>
#include <chrono>
#include <memory>
#include <vector>

#include "services/gateway/http/message.h"
#include "services/gateway/pipeline/request_context.h"

namespace feedback::gateway {

class Pipeline;

// The way back: the stages before `index` see the answer, last first, then the finish stage.
class Unwind {
 public:
  Unwind(const Pipeline& pipeline, ContextPtr ctx, std::size_t index)
      : pipeline_(&pipeline), ctx_(std::move(ctx)), index_(index) {}
  // Passes the answer on; called exactly once, from any thread.
  void next(HttpResponse response) const;

 private:
  const Pipeline* pipeline_;
  ContextPtr ctx_;
  std::size_t index_;
};

// A stage's way on: exactly one of next() or reply() is called, once, from any thread.
class Chain {
 public:
  Chain(const Pipeline& pipeline, ContextPtr ctx, std::size_t index)
      : pipeline_(&pipeline), ctx_(std::move(ctx)), index_(index) {}
  // Runs the next stage.
  void next() const;
  // Answers; the stages after this one are skipped.
  void reply(HttpResponse response) const;

 private:
  const Pipeline* pipeline_;
  ContextPtr ctx_;
  std::size_t index_;
};

class Stage {
 public:
  virtual ~Stage() = default;
  virtual void decode(const ContextPtr& ctx, Chain chain) = 0;
  // On the way out, for every stage before the one that answered (as Envoy's encoder
  // filters): may change the answer, now or once some I/O is done. Must not throw.
  virtual void encode(const ContextPtr&, HttpResponse response, Unwind unwind) {
    unwind.next(std::move(response));
  }
};

// What every answer passes on its way out, whichever stage gave it.
class FinishStage {
 public:
  virtual ~FinishStage() = default;
  virtual void encode(const RequestContext& ctx, HttpResponse& response) = 0;
};

class Pipeline {
 public:
  Pipeline(std::vector<std::unique_ptr<Stage>> stages, FinishStage& finish,
           std::chrono::milliseconds backend_timeout)
      : stages_(std::move(stages)), finish_(finish), backend_timeout_(backend_timeout) {}

  // The HTTP server's handler: `respond` gets the finished answer.
  void handle(HttpRequest request, Respond respond) const;
  // Waits, at most `timeout`, until no request is left: not even backend calls still under
  // way for requests answered already. What they reach must outlive them.
  bool waitIdle(std::chrono::milliseconds timeout) const;

 private:
  friend class Chain;
  friend class Unwind;
  void run(const ContextPtr& ctx, std::size_t index) const;
  // The answer of stage `index` (or of the pipeline itself, past the last stage) goes back
  // through the stages before it.
  void unwind(const ContextPtr& ctx, std::size_t index, HttpResponse response) const;

  std::vector<std::unique_ptr<Stage>> stages_;
  FinishStage& finish_;
  const std::chrono::milliseconds backend_timeout_;
  // Requests whose context is still alive; shared with them, since a context may outlive a
  // pipeline that stopped waiting.
  std::shared_ptr<std::atomic<int>> live_ = std::make_shared<std::atomic<int>>(0);
};

}  // namespace feedback::gateway
