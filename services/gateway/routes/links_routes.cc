// /v1/links/: feedback links and their questions (links service), with response_count.
#include "common/core/json_text.h"
#include "common/core/json_writer.h"
#include "common/core/scopes.h"
#include "feedback/links/v1/links.grpc.pb.h"
#include "services/gateway/backends/backend_call.h"
#include "services/gateway/http/query.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/json/link_json.h"
#include "services/gateway/json/link_requests.h"
#include "services/gateway/json/listing.h"
#include "services/gateway/routes/routes.h"

namespace feedback::gateway {
namespace {

namespace lv1 = feedback::links::v1;

// Answers with `link` once its response_count is known.
void respondWithCount(const ContextPtr& ctx, Respond respond, ResponseCounts& counts, int status,
                      lv1::Link link) {
  auto shared = std::make_shared<lv1::Link>(std::move(link));
  counts.fetch(
      ctx, {shared->uuid()},
      [shared, status, respond](ResponseCounts::Counts found) {
        shared->set_response_count(found[shared->uuid()]);
        respond(jsonResponse(status, renderLink(*shared)));
      },
      answerError(ctx, respond));
}

}  // namespace

void addLinksRoutes(Routes& routes, const Backends& backends, LinkDocuments& documents,
                    ResponseCounts& counts) {
  std::shared_ptr<lv1::LinksService::Stub> links = lv1::LinksService::NewStub(backends.links);

  routes.add(
      Method::kGet, "/v1/links/",
      {RouteAttributes{.scope = scopes::kLinksRead,
                       .rpcs = {"LinksService/ListLinks", "ResponsesService/CountResponses"}},
       [links, &counts](const ContextPtr& ctx, Respond respond) {
         lv1::ListLinksRequest request;
         *request.mutable_caller() = *ctx->caller;
         *request.mutable_page() = pageRequestFrom(ctx->request);
         Query query(ctx->request.query());
         if (auto status = query.get("status")) request.set_status(*status);
         if (auto search = query.get("search")) request.set_search(*search);
         auto page = request.page();
         callAsync<lv1::ListLinksResponse>(
             ctx, std::move(request),
             [links](auto* c, auto* q, auto* r, auto done) {
               links->async()->ListLinks(c, q, r, std::move(done));
             },
             [ctx, page, respond, &counts](const lv1::ListLinksResponse& response) {
               auto listed = std::make_shared<lv1::ListLinksResponse>(response);
               std::vector<std::string> uuids;
               for (const auto& link : listed->links()) uuids.push_back(link.uuid());
               counts.fetch(
                   ctx, std::move(uuids),
                   [ctx, page, respond, listed](ResponseCounts::Counts found) {
                     std::string results;
                     JsonWriter json(results);
                     json.beginArray();
                     for (auto& link : *listed->mutable_links()) {
                       link.set_response_count(found[link.uuid()]);
                       writeLink(json, link);
                     }
                     json.endArray();
                     respond(
                         jsonResponse(200, renderEnvelope(*ctx, page, listed->count(), results)));
                   },
                   answerError(ctx, respond));
             },
             answerError(ctx, respond));
       }});

  routes.add(
      Method::kPost, "/v1/links/",
      {RouteAttributes{
           .scope = scopes::kLinksWrite, .idempotent = true, .rpcs = {"LinksService/CreateLink"}},
       [links](const ContextPtr& ctx, Respond respond) {
         callBackend<lv1::CreateLinkResponse>(
             ctx, std::move(respond), createLinkRequest(ctx->body, *ctx->caller),
             [links](auto* c, auto* q, auto* r, auto done) {
               links->async()->CreateLink(c, q, r, std::move(done));
             },
             // A new link has no responses.
             [](const lv1::CreateLinkResponse& r) {
               return jsonResponse(201, renderLink(r.link()));
             });
       }});

  routes.add(Method::kGet, "/v1/links/{uuid}/",
             {RouteAttributes{.scope = scopes::kLinksRead,
                              .rpcs = {"LinksService/GetLink", "ResponsesService/CountResponses"}},
              [&documents](const ContextPtr& ctx, Respond respond) {
                documents.serve(ctx, ctx->params.at(0), ctx->redis.routeRead(0),
                                std::move(respond));
              },
              [](const RequestContext& ctx) { return LinkDocuments::prefetch(ctx.params.at(0)); }});

  routes.add(
      Method::kPatch, "/v1/links/{uuid}/",
      {RouteAttributes{.scope = scopes::kLinksWrite,
                       .rpcs = {"LinksService/UpdateLink", "ResponsesService/CountResponses"}},
       [links, &counts](const ContextPtr& ctx, Respond respond) {
         callAsync<lv1::UpdateLinkResponse>(
             ctx, updateLinkRequest(ctx->body, *ctx->caller, ctx->params.at(0)),
             [links](auto* c, auto* q, auto* r, auto done) {
               links->async()->UpdateLink(c, q, r, std::move(done));
             },
             [ctx, respond, &counts](const lv1::UpdateLinkResponse& r) {
               respondWithCount(ctx, respond, counts, 200, r.link());
             },
             answerError(ctx, respond));
       }});

  routes.add(
      Method::kDelete, "/v1/links/{uuid}/",
      {RouteAttributes{.scope = scopes::kLinksWrite, .rpcs = {"LinksService/DeleteLink"}},
       [links](const ContextPtr& ctx, Respond respond) {
         lv1::DeleteLinkRequest request;
         *request.mutable_caller() = *ctx->caller;
         request.set_link_uuid(ctx->params.at(0));
         callBackend<lv1::DeleteLinkResponse>(
             ctx, std::move(respond), std::move(request),
             [links](auto* c, auto* q, auto* r, auto done) {
               links->async()->DeleteLink(c, q, r, std::move(done));
             },
             [](const lv1::DeleteLinkResponse&) { return messageResponse("Link deleted."); });
       }});
}

}  // namespace feedback::gateway
