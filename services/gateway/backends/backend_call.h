#pragma once
// Asynchronous unary gRPC calls on behalf of an HTTP request (gRPC callback API), under the
// request's deadline and with its request id as metadata. callAsync hands the answer or the
// contract's error to continuations, so that routes can chain calls; callBackend answers the
// request from one call.

#include <grpcpp/grpcpp.h>

#include <memory>

#include "common/core/log.h"
#include "common/grpc/grpc_kit.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/pipeline/request_context.h"

namespace feedback::gateway {

// `start(context, request, response, done)` issues the call, e.g.
//   [&stub](auto* c, auto* q, auto* r, auto done) { stub.async()->GetLink(c, q, r, done); }
// then `on_ok(response)` runs, or `on_error(ApiError)` for a failed status or for what on_ok
// throws. Both run on a gRPC thread and must not block.
template <class Response, class Request, class Start, class OnOk, class OnError>
void callAsync(const ContextPtr& ctx, Request request, Start start, OnOk on_ok, OnError on_error) {
  struct Call {
    grpc::ClientContext client;
    Request request;
    Response response;
  };
  auto call = std::make_shared<Call>();
  call->request = std::move(request);
  call->client.set_deadline(ctx->deadline);
  // Lets the services' logs name the request and its trace.
  call->client.AddMetadata("x-request-id", ctx->request_id);
  call->client.AddMetadata("traceparent", trace::format(ctx->trace));
  start(&call->client, &call->request, &call->response,
        [call, ctx, on_ok = std::move(on_ok), on_error = std::move(on_error)](grpc::Status status) {
          log::TraceScope traced(ctx->trace.trace_id);
          if (!status.ok()) return on_error(grpckit::fromStatus(status));
          try {
            on_ok(call->response);
          } catch (const ApiError& e) {
            on_error(e);
          } catch (const std::exception& e) {
            log::error("render_failed", {{"error", e.what()}, {"request_id", ctx->request_id}});
            on_error(ApiError(ErrorCode::kInternalError));
          }
        });
}

// A continuation that answers with the contract's error body.
inline auto answerError(const ContextPtr& ctx, Respond respond) {
  return [ctx, respond = std::move(respond)](const ApiError& e) {
    respond(errorResponse(e, ctx->request_id));
  };
}

// `render(response)` returns the HttpResponse for a successful call; it may move the
// response's strings out (the call's response is not read after it).
template <class Response, class Request, class Start, class Render>
void callBackend(const ContextPtr& ctx, Respond respond, Request request, Start start,
                 Render render) {
  callAsync<Response>(
      ctx, std::move(request), std::move(start),
      [respond, render = std::move(render)](Response& r) { respond(render(r)); },
      answerError(ctx, respond));
}

}  // namespace feedback::gateway
