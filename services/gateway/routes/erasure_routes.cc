// DELETE /v1/links/{uuid}/responses/{uuid}/ and POST /v1/responses/erase/: erasing
// respondents' data (responses service, ErasureService; docs/api.md "Erasure and retention").
#include "common/core/json_writer.h"
#include "common/core/scopes.h"
#include "feedback/responses/v1/erasure.grpc.pb.h"
#include "services/gateway/backends/backend_call.h"
#include "services/gateway/http/json_input.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/routes/routes.h"

namespace feedback::gateway {
namespace {

namespace rv1 = feedback::responses::v1;

// A respondent's 10,000 responses are erased in about a second (docs/benchmarks.md); the call
// answers when all are gone, so it may take far longer than other calls.
constexpr auto kLongestErasure = std::chrono::seconds(30 * 60);

}  // namespace

void addErasureRoutes(Routes& routes, const Backends& backends) {
  std::shared_ptr<rv1::ErasureService::Stub> erasure =
      rv1::ErasureService::NewStub(backends.responses);

  routes.add(
      Method::kDelete, "/v1/links/{uuid}/responses/{uuid}/",
      {RouteAttributes{.scope = scopes::kResponsesWrite, .rpcs = {"ErasureService/DeleteResponse"}},
       [erasure](const ContextPtr& ctx, Respond respond) {
         rv1::DeleteResponseRequest request;
         *request.mutable_caller() = *ctx->caller;
         request.set_link_uuid(ctx->params.at(0));
         request.set_response_uuid(ctx->params.at(1));
         callBackend<rv1::DeleteResponseResponse>(
             ctx, std::move(respond), std::move(request),
             [erasure](auto* c, auto* q, auto* r, auto done) {
               erasure->async()->DeleteResponse(c, q, r, std::move(done));
             },
             [](const rv1::DeleteResponseResponse&) {
               return messageResponse("Response deleted.");
             });
       }});

  routes.add(Method::kPost, "/v1/responses/erase/",
             {RouteAttributes{.scope = scopes::kResponsesWrite,
                              .idempotent = true,
                              .longest_call = kLongestErasure,
                              .rpcs = {"ErasureService/EraseRespondent"}},
              [erasure](const ContextPtr& ctx, Respond respond) {
                JsonFields body(ctx->body, "", {"respondent_email"});
                rv1::EraseRespondentRequest request;
                *request.mutable_caller() = *ctx->caller;
                if (auto email = body.text("respondent_email")) {
                  request.set_respondent_email(*email);
                }
                callBackend<rv1::EraseRespondentResponse>(
                    ctx, std::move(respond), std::move(request),
                    [erasure](auto* c, auto* q, auto* r, auto done) {
                      erasure->async()->EraseRespondent(c, q, r, std::move(done));
                    },
                    [](const rv1::EraseRespondentResponse& response) {
                      std::string out;
                      JsonWriter(out).beginObject().field("erased", response.erased()).endObject();
                      return jsonResponse(200, std::move(out));
                    });
              }});
}

}  // namespace feedback::gateway
