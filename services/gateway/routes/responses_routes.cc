// /v1/links/{uuid}/responses/, its export/, and /v1/responses/: reading responses (responses
// service).
#include <algorithm>
#include <cctype>

#include "common/api/export_files.h"
#include "common/api/media_urls.h"
#include "common/api/response_json.h"
#include "common/core/ascii.h"
#include "common/core/ids.h"
#include "common/core/json_writer.h"
#include "common/core/pagination.h"
#include "common/core/scopes.h"
#include "common/core/text.h"
#include "common/core/time.h"
#include "common/redis/response_counts.h"
#include "feedback/responses/v1/responses.grpc.pb.h"
#include "services/gateway/backends/backend_call.h"
#include "services/gateway/backends/export_stream.h"
#include "services/gateway/http/query.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/json/listing.h"
#include "services/gateway/routes/routes.h"

namespace feedback::gateway {
namespace {

namespace rv1 = feedback::responses::v1;
using api::renderAnswer;
using api::renderResponse;
using api::writeResponse;
using Stub = std::shared_ptr<rv1::ResponsesService::Stub>;

constexpr std::size_t kMaxSearchLength = 200;

[[noreturn]] void invalidParameter(const std::string& name, const std::string& problem) {
  throw ApiError(ErrorCode::kValidationError, "'" + name + "' " + problem + ".", {{name, problem}});
}

// since/until: inclusive bounds; a bare day as `until` includes that whole day.
std::optional<int64_t> timeBound(const Query& query, const char* name, bool upper) {
  auto text = query.get(name);
  if (!text) return std::nullopt;
  auto parsed = parseTimestamp(*text);
  if (!parsed) invalidParameter(name, "must be an ISO 8601 date or timestamp");
  constexpr int64_t kDayMicros = 86400LL * 1000000;
  return upper && parsed->date_only ? parsed->micros + kDayMicros - 1 : parsed->micros;
}

// The list parameters (docs/api.md "Pagination and lists"); the service judges ordering and
// status.
rv1::ListResponsesRequest listRequestFrom(const RequestContext& ctx) {
  rv1::ListResponsesRequest request;
  *request.mutable_caller() = *ctx.caller;
  request.set_as_json(true);
  *request.mutable_page() = pageRequestFrom(ctx.request);
  Query query(ctx.request.query());
  if (auto ordering = query.get("ordering")) request.set_ordering(*ordering);
  if (auto status = query.get("status")) request.set_status(*status);
  if (auto search = query.get("search")) {
    requireStorableText(*search, "search");
    if (search->size() > kMaxSearchLength) invalidParameter("search", "must be at most 200 bytes");
    request.set_search(*search);
  }
  if (auto since = timeBound(query, "since", false)) request.set_since_micros(*since);
  if (auto until = timeBound(query, "until", true)) request.set_until_micros(*until);
  return request;
}

// Runs with each page the service answers, before it is sent.
using OnPage = std::function<void(const std::shared_ptr<const CachedPage>&)>;

void list(const Stub& responses, const ContextPtr& ctx, Respond respond,
          rv1::ListResponsesRequest request, OnPage on_page = {}) {
  auto page = request.page();
  callBackend<rv1::ListResponsesResponse>(
      ctx, std::move(respond), std::move(request),
      [responses](auto* c, auto* q, auto* r, auto done) {
        responses->async()->ListResponses(c, q, r, std::move(done));
      },
      [ctx, page, on_page = std::move(on_page)](rv1::ListResponsesResponse& response) {
        auto rendered = std::make_shared<CachedPage>();
        rendered->count = response.count();
        std::string& results = rendered->results_json;
        if (!response.results_json().empty()) {
          results = std::move(*response.mutable_results_json());
        } else {
          // A responses service older than as_json, during a rollout: to be removed once
          // every responses replica answers results_json.
          results.reserve(1024 * static_cast<std::size_t>(response.responses_size()) + 2);
          JsonWriter json(results);
          json.beginArray();
          for (const auto& r : response.responses()) writeResponse(json, r);
          json.endArray();
        }
        if (on_page) on_page(rendered);
        return jsonResponse(200, renderEnvelope(*ctx, page, rendered->count, results));
      });
}

std::string pageKeyOf(const rv1::ListResponsesRequest& request) {
  Page page = normalizePage(request.page());
  PageKeyParts parts{request.link_uuid(), request.ordering(), request.search(), page.number,
                     page.size};
  if (request.has_since_micros()) parts.since_micros = request.since_micros();
  if (request.has_until_micros()) parts.until_micros = request.until_micros();
  return pageKey(parts);
}

// `Cache-Control: no-cache` (RFC 9111 section 5.2.1.4): the client wants the page read afresh
// rather than a kept one, however current.
bool asksForFreshPage(const HttpRequest& request) {
  return asciiLowercase(request.header("cache-control")).find("no-cache") != std::string::npos;
}

// A link's list: its pages of completed responses served from, and kept in, the gateway's
// cache as KeptPages decides from the link's read. The service lists completed responses when
// no status is given (responses_service.cc, statusFilter).
void listLinkResponses(const Stub& responses, KeptPages& pages, const ContextPtr& ctx,
                       Respond respond, rv1::ListResponsesRequest request) {
  const bool completed_only = request.status().empty() || request.status() == "completed";
  if (!pages.enabled() || !completed_only) {
    return list(responses, ctx, std::move(respond), std::move(request));
  }
  auto key = pageKeyOf(request);
  auto plan = pages.plan(ctx, request.link_uuid(), key, asksForFreshPage(ctx->request));
  if (plan.kept) {
    return respond(jsonResponse(
        200, renderEnvelope(*ctx, request.page(), plan.kept->count, plan.kept->results_json)));
  }
  if (!plan.validity) return list(responses, ctx, std::move(respond), std::move(request));
  list(responses, ctx, std::move(respond), std::move(request),
       [&pages, key = std::move(key), plan = std::move(plan)](
           const std::shared_ptr<const CachedPage>& page) { pages.keep(key, plan, page); });
}

void detail(const Stub& responses, const ContextPtr& ctx, Respond respond,
            const std::string& link_uuid, const std::string& response_uuid) {
  rv1::GetResponseRequest request;
  *request.mutable_caller() = *ctx->caller;
  request.set_link_uuid(link_uuid);
  request.set_response_uuid(response_uuid);
  callBackend<rv1::GetResponseResponse>(
      ctx, std::move(respond), std::move(request),
      [responses](auto* c, auto* q, auto* r, auto done) {
        responses->async()->GetResponse(c, q, r, std::move(done));
      },
      [](const rv1::GetResponseResponse& r) {
        return jsonResponse(200, renderResponse(r.response()));
      });
}

// GET /v1/links/{uuid}/summary/: the service summarises the link's questions as the link has
// them now.
void summary(const Stub& responses, const ContextPtr& ctx, Respond respond,
             const LinkDocument& document) {
  rv1::GetLinkSummaryRequest request;
  *request.mutable_caller() = *ctx->caller;
  request.set_link_uuid(ctx->params.at(0));
  *request.mutable_link() = *document.link;
  Query query(ctx->request.query());
  if (auto since = timeBound(query, "since", false)) request.set_since_micros(*since);
  if (auto until = timeBound(query, "until", true)) request.set_until_micros(*until);
  callBackend<rv1::GetLinkSummaryResponse>(
      ctx, std::move(respond), std::move(request),
      [responses](auto* c, auto* q, auto* r, auto done) {
        responses->async()->GetLinkSummary(c, q, r, std::move(done));
      },
      [](const rv1::GetLinkSummaryResponse& r) { return jsonResponse(200, r.summary_json()); });
}

// A body never asked for (a HEAD's).
class NoBody final : public BodyStream {
 public:
  void next(Got got) override { got(true, {}); }
  void cancel() override {}
};

// GET /v1/links/{uuid}/responses/export/: the link's responses as one file, written by the
// service and sent as it comes (chunked), each chunk asked for once the last one is written.
void exportFile(const ExportStub& exports, const ContextPtr& ctx, Respond respond,
                const LinkDocument& document) {
  Query query(ctx->request.query());
  const auto* type = api::findExportFileType(query.get("format").value_or("csv"));
  if (!type) invalidParameter("format", "must be " + std::string(api::kExportFormats));
  const auto listed = listRequestFrom(*ctx);
  rv1::ExportResponsesRequest request;
  *request.mutable_caller() = *ctx->caller;
  *request.mutable_link() = *document.link;
  request.set_format(std::string(type->format));
  request.set_ordering(listed.ordering());
  request.set_search(listed.search());
  request.set_status(listed.status());
  if (listed.has_since_micros()) request.set_since_micros(listed.since_micros());
  if (listed.has_until_micros()) request.set_until_micros(listed.until_micros());
  request.set_host(ctx->caller->workspace().host());
  const std::string file_name =
      api::exportFileName(document.link->slug(), *type, api::unixSeconds());
  auto answer = [type, file_name](std::shared_ptr<BodyStream> body) {
    HttpResponse out;
    out.setHeader("Content-Type", std::string(type->content_type));
    out.setHeader("Content-Disposition", "attachment; filename=\"" + file_name + "\"");
    out.setHeader("Cache-Control", "no-store");
    out.stream = std::move(body);
    out.stream_length = HttpResponse::kUnknownLength;
    return out;
  };
  // HEAD: the headers a GET would have, without making the file.
  if (ctx->request.head) return respond(answer(std::make_shared<NoBody>()));
  streamExport(
      exports, ctx, std::move(request),
      [ctx, respond, answer](const grpc::Status& status, std::shared_ptr<BodyStream> body) {
        if (!status.ok()) {
          return respond(errorResponse(grpckit::fromStatus(status), ctx->request_id));
        }
        respond(answer(std::move(body)));
      });
}

// The link's version, read with the API key so that its existence is usually known from the
// gateway's link cache.
Prefetch linkVersion() {
  return [](const RequestContext& ctx) { return LinkDocuments::prefetch(ctx.params.at(0)); };
}

}  // namespace

void addResponsesRoutes(Routes& routes, const Backends& backends, LinkDocuments& documents,
                        KeptPages& pages) {
  Stub responses = rv1::ResponsesService::NewStub(backends.responses);

  routes.add(Method::kGet, "/v1/links/{uuid}/responses/",
             {RouteAttributes{.scope = scopes::kResponsesRead,
                              .signs_media = true,
                              .rpcs = {"ResponsesService/ListResponses", "LinksService/GetLink",
                                       "ResponsesService/CountResponses"}},
              [responses, &documents, &pages](const ContextPtr& ctx, Respond respond) {
                auto request = listRequestFrom(*ctx);
                request.set_link_uuid(ctx->params.at(0));
                documents.require(
                    ctx, ctx->params.at(0), ctx->redis.routeRead(0),
                    [responses, &pages, ctx, respond, request = std::move(request)]() mutable {
                      listLinkResponses(responses, pages, ctx, respond, std::move(request));
                    },
                    respond);
              },
              linkVersion()});

  routes.add(Method::kGet, "/v1/links/{uuid}/responses/{uuid}/",
             {RouteAttributes{.scope = scopes::kResponsesRead,
                              .signs_media = true,
                              .rpcs = {"ResponsesService/GetResponse", "LinksService/GetLink"}},
              [responses, &documents](const ContextPtr& ctx, Respond respond) {
                documents.require(
                    ctx, ctx->params.at(0), ctx->redis.routeRead(0),
                    [responses, ctx, respond] {
                      detail(responses, ctx, respond, ctx->params.at(0), ctx->params.at(1));
                    },
                    respond);
              },
              linkVersion()});

  // On the bulk connection: a slow client's file is not buffered here (as media reads).
  const ExportStub exports = rv1::ExportService::NewStub(backends.responses_media);
  routes.add(Method::kGet, "/v1/links/{uuid}/responses/export/",
             {RouteAttributes{.scope = scopes::kResponsesRead,
                              .rpcs = {"ExportService/ExportResponses", "LinksService/GetLink"}},
              [exports, &documents](const ContextPtr& ctx, Respond respond) {
                documents.document(
                    ctx, ctx->params.at(0), ctx->redis.routeRead(0),
                    [exports, ctx, respond](std::shared_ptr<const LinkDocument> doc) {
                      exportFile(exports, ctx, respond, *doc);
                    },
                    respond);
              },
              linkVersion()});

  routes.add(Method::kGet, "/v1/links/{uuid}/summary/",
             {RouteAttributes{.scope = scopes::kResponsesRead,
                              .rpcs = {"ResponsesService/GetLinkSummary", "LinksService/GetLink"}},
              [responses, &documents](const ContextPtr& ctx, Respond respond) {
                documents.document(
                    ctx, ctx->params.at(0), ctx->redis.routeRead(0),
                    [responses, ctx, respond](std::shared_ptr<const LinkDocument> doc) {
                      summary(responses, ctx, respond, *doc);
                    },
                    respond);
              },
              linkVersion()});

  routes.add(Method::kGet, "/v1/responses/",
             {RouteAttributes{.scope = scopes::kResponsesRead,
                              .signs_media = true,
                              .rpcs = {"ResponsesService/ListResponses"}},
              [responses](const ContextPtr& ctx, Respond respond) {
                auto request = listRequestFrom(*ctx);
                if (auto link = Query(ctx->request.query()).get("link_uuid")) {
                  if (!isUuid(*link)) invalidParameter("link_uuid", "must be a UUID");
                  request.set_link_uuid(*link);
                }
                list(responses, ctx, std::move(respond), std::move(request));
              }});
}

}  // namespace feedback::gateway
