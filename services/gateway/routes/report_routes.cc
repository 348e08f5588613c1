// Shared reports (docs/api.md "Shared reports"):
//   POST/GET /v1/links/{uuid}/reports/, DELETE /v1/links/{uuid}/reports/{uuid}/  (links service)
//   GET /r/{report_token}   the report's page on the workspace's host: the report opened by the
//                           links service, the summary from the responses service.
#include "common/core/json_writer.h"
#include "common/core/scopes.h"
#include "common/core/time.h"
#include "feedback/links/v1/reports.grpc.pb.h"
#include "feedback/responses/v1/responses.grpc.pb.h"
#include "services/gateway/backends/backend_call.h"
#include "services/gateway/http/json_input.h"
#include "services/gateway/json/listing.h"
#include "services/gateway/page/report_page.h"
#include "services/gateway/routes/routes.h"

namespace feedback::gateway {
namespace {

namespace lv1 = feedback::links::v1;
namespace rv1 = feedback::responses::v1;
using ReportsStub = std::shared_ptr<lv1::ReportsService::Stub>;
using SummaryStub = std::shared_ptr<rv1::ResponsesService::Stub>;

// The latest answers quoted per text or voice question when a report includes text.
constexpr int kQuotesPerQuestion = 5;

void writeReport(JsonWriter& json, const lv1::Report& report, const std::string* url) {
  json.beginObject().field("uuid", report.uuid());
  if (url) json.field("url", *url);
  json.field("expires_at", formatTimestamp(report.expires_at_micros()))
      .field("include_text", report.include_text())
      .field("date_created", formatTimestamp(report.date_created_micros()))
      .endObject();
}

lv1::CreateReportRequest createRequest(const ContextPtr& ctx) {
  lv1::CreateReportRequest request;
  *request.mutable_caller() = *ctx->caller;
  request.set_link_uuid(ctx->params.at(0));
  JsonFields body(ctx->body, "", {"expires_in_days", "include_text"});
  if (auto days = body.integer("expires_in_days")) {
    // Out of int32's range is out of 1..365 too: the service says so.
    request.set_expires_in_days(static_cast<int32_t>(std::clamp<int64_t>(*days, -1, 366)));
  }
  if (auto text = body.boolean("include_text")) request.set_include_text(*text);
  return request;
}

// Pages for people: a report that cannot be opened is a page too.
HttpResponse reportPage(int status, std::string html) {
  HttpResponse response;
  response.status = status;
  response.body = std::move(html);
  response.setHeader("Content-Type", "text/html; charset=utf-8");
  response.setHeader("Content-Security-Policy", std::string(kReportPagePolicy));
  // Opened again, the page shows the results as they are then.
  response.setHeader("Cache-Control", "no-store");
  response.setHeader("X-Content-Type-Options", "nosniff");
  response.setHeader("Referrer-Policy", "no-referrer");
  response.setHeader("X-Robots-Tag", "noindex");
  return response;
}

HttpResponse missingReportPage() {
  return reportPage(
      404,
      "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
      "content=\"width=device-width, initial-scale=1\"><title>Report not found</title></head>"
      "<body><main><h1>Report not found</h1><p>This report does not exist, has expired or was "
      "revoked.</p></main></body></html>");
}

// The summary of the link the report opened, then the page.
void showReport(const SummaryStub& responses, const ContextPtr& ctx, Respond respond,
                lv1::OpenReportResponse opened) {
  rv1::GetLinkSummaryRequest request;
  *request.mutable_caller() = *ctx->caller;
  request.set_link_uuid(opened.link().uuid());
  *request.mutable_link() = opened.link();
  request.set_daily(true);
  request.set_keep(true);
  if (opened.report().include_text()) request.set_quotes(kQuotesPerQuestion);
  auto link = std::make_shared<lv1::Link>(std::move(*opened.mutable_link()));
  callBackend<rv1::GetLinkSummaryResponse>(
      ctx, std::move(respond), std::move(request),
      [responses](auto* c, auto* q, auto* r, auto done) {
        responses->async()->GetLinkSummary(c, q, r, std::move(done));
      },
      [link](const rv1::GetLinkSummaryResponse& r) {
        return reportPage(200, renderReportPage(*link, r));
      });
}

}  // namespace

void addReportRoutes(Routes& routes, const Backends& backends) {
  const ReportsStub reports = lv1::ReportsService::NewStub(backends.links);
  const SummaryStub responses = rv1::ResponsesService::NewStub(backends.responses);

  routes.add(
      Method::kPost, "/v1/links/{uuid}/reports/",
      {RouteAttributes{.scope = scopes::kResponsesRead, .rpcs = {"ReportsService/CreateReport"}},
       [reports](const ContextPtr& ctx, Respond respond) {
         callBackend<lv1::CreateReportResponse>(
             ctx, std::move(respond), createRequest(ctx),
             [reports](auto* c, auto* q, auto* r, auto done) {
               reports->async()->CreateReport(c, q, r, std::move(done));
             },
             [](const lv1::CreateReportResponse& r) {
               std::string body;
               JsonWriter json(body);
               writeReport(json, r.report(), &r.url());
               return jsonResponse(201, std::move(body));
             });
       }});

  routes.add(
      Method::kGet, "/v1/links/{uuid}/reports/",
      {RouteAttributes{.scope = scopes::kResponsesRead, .rpcs = {"ReportsService/ListReports"}},
       [reports](const ContextPtr& ctx, Respond respond) {
         lv1::ListReportsRequest request;
         *request.mutable_caller() = *ctx->caller;
         request.set_link_uuid(ctx->params.at(0));
         *request.mutable_page() = pageRequestFrom(ctx->request);
         auto page = request.page();
         callBackend<lv1::ListReportsResponse>(
             ctx, std::move(respond), std::move(request),
             [reports](auto* c, auto* q, auto* r, auto done) {
               reports->async()->ListReports(c, q, r, std::move(done));
             },
             [ctx, page](const lv1::ListReportsResponse& r) {
               std::string results;
               JsonWriter json(results);
               json.beginArray();
               for (const auto& report : r.reports()) writeReport(json, report, nullptr);
               json.endArray();
               return jsonResponse(200, renderEnvelope(*ctx, page, r.count(), results));
             });
       }});

  routes.add(
      Method::kDelete, "/v1/links/{uuid}/reports/{uuid}/",
      {RouteAttributes{.scope = scopes::kResponsesRead, .rpcs = {"ReportsService/RevokeReport"}},
       [reports](const ContextPtr& ctx, Respond respond) {
         lv1::RevokeReportRequest request;
         *request.mutable_caller() = *ctx->caller;
         request.set_link_uuid(ctx->params.at(0));
         request.set_report_uuid(ctx->params.at(1));
         callBackend<lv1::RevokeReportResponse>(
             ctx, std::move(respond), std::move(request),
             [reports](auto* c, auto* q, auto* r, auto done) {
               reports->async()->RevokeReport(c, q, r, std::move(done));
             },
             [](const lv1::RevokeReportResponse&) { return messageResponse("Report revoked."); });
       }});

  routes.add(
      Method::kGet, "/r/{report_token}",
      {RouteAttributes{.access = Access::kPublic,
                       .rate_window = RateWindow::kReplica,
                       .rpcs = {"ReportsService/OpenReport", "ResponsesService/GetLinkSummary"}},
       [reports, responses](const ContextPtr& ctx, Respond respond) {
         lv1::OpenReportRequest request;
         request.set_workspace_uuid(ctx->caller->workspace().uuid());
         request.set_token(ctx->params.at(0));
         // Every other failure is the contract's error; a report that cannot be opened is a
         // page for the person who followed the link.
         Respond answer = [respond](HttpResponse response) {
           respond(response.status == 404 ? missingReportPage() : std::move(response));
         };
         callAsync<lv1::OpenReportResponse>(
             ctx, std::move(request),
             [reports](auto* c, auto* q, auto* r, auto done) {
               reports->async()->OpenReport(c, q, r, std::move(done));
             },
             [responses, ctx, answer](lv1::OpenReportResponse& opened) {
               showReport(responses, ctx, answer, std::move(opened));
             },
             answerError(ctx, answer));
       }});
}

}  // namespace feedback::gateway
