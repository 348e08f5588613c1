#pragma once
// One asynchronous unary gRPC call on behalf of an HTTP request (gRPC callback API): the
// completion builds the HTTP answer, or the contract's error for a failed status.

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>

#include "common/core/log.h"
#include "common/grpc/grpc_kit.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/routes/request_context.h"

namespace feedback::gateway {

inline std::chrono::milliseconds& backendTimeout() {
  static std::chrono::milliseconds timeout{5000};
  return timeout;
}

// `start(context, request, response, done)` issues the call, e.g.
//   [&stub](auto* c, auto* q, auto* r, auto done) { stub.async()->GetLink(c, q, r, done); }
// `render(response)` returns the HttpResponse for a successful call.
template <class Response, class Request, class Start, class Render>
void callBackend(const ContextPtr& ctx, Respond respond, Request request, Start start,
                 Render render) {
  struct Call {
    grpc::ClientContext client;
    Request request;
    Response response;
  };
  auto call = std::make_shared<Call>();
  call->request = std::move(request);
  call->client.set_deadline(std::chrono::system_clock::now() + backendTimeout());
  // Lets the services' logs name the request.
  call->client.AddMetadata("x-request-id", ctx->request_id);
  start(&call->client, &call->request, &call->response,
        [call, ctx, respond = std::move(respond), render = std::move(render)](grpc::Status status) {
          if (!status.ok()) {
            respond(errorResponse(grpckit::fromStatus(status), ctx->request_id));
            return;
          }
          try {
            respond(render(call->response));
          } catch (const ApiError& e) {
            respond(errorResponse(e, ctx->request_id));
          } catch (const std::exception& e) {
            log::error("render_failed", {{"error", e.what()}, {"request_id", ctx->request_id}});
            respond(errorResponse(ApiError(ErrorCode::kInternalError), ctx->request_id));
          }
        });
}

}  // namespace feedback::gateway
