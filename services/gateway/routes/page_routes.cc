// The intake page a respondent opens (public_url):
//   GET /i/{slug}                 the page, with the link's name and form inside
//   GET /static/<asset>           its scripts and styles (page/intake_page.h)
#include "services/gateway/http/responses.h"
#include "services/gateway/page/intake_page.h"
#include "services/gateway/routes/routes.h"

namespace feedback::gateway {
namespace {

// Assets asked for by their content's version (?v=) never change; others (modules imported by
// name) are checked on every use, so that a deploy never mixes old and new code.
constexpr std::string_view kVersionedCaching = "public, max-age=31536000, immutable";
constexpr std::string_view kUnversionedCaching = "no-cache";

void securityHeaders(HttpResponse& response) {
  response.setHeader("X-Content-Type-Options", "nosniff");
  response.setHeader("Referrer-Policy", "no-referrer");
}

HttpResponse pageResponse(int status, std::string html) {
  HttpResponse response;
  response.status = status;
  response.body = std::move(html);
  response.setHeader("Content-Type", "text/html; charset=utf-8");
  response.setHeader("Content-Security-Policy", std::string(kIntakePagePolicy));
  // The page carries the link as it is now: a pause or an edit shows at the next visit.
  response.setHeader("Cache-Control", "no-cache");
  response.setHeader("Permissions-Policy", "microphone=(self), camera=(), geolocation=()");
  securityHeaders(response);
  return response;
}

HttpResponse notFoundPage() {
  return pageResponse(
      404,
      "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
      "content=\"width=device-width, initial-scale=1\"><title>Form not found</title></head>"
      "<body><main><h1>Form not found</h1><p>This feedback link does not exist or is no longer "
      "available.</p></main></body></html>");
}

HttpResponse assetResponse(const RequestContext& ctx, const PageAsset& asset) {
  HttpResponse response;
  const std::string etag = "\"" + asset.etag + "\"";
  const bool versioned = ctx.request.query() == "v=" + asset.etag;
  response.setHeader("Cache-Control",
                     std::string(versioned ? kVersionedCaching : kUnversionedCaching));
  response.setHeader("ETag", etag);
  securityHeaders(response);
  if (ctx.request.header("if-none-match") == etag) {
    response.status = 304;
    return response;
  }
  response.status = 200;
  response.setHeader("Content-Type", std::string(asset.content_type));
  response.body = std::string(asset.content);
  return response;
}

}  // namespace

void addPageRoutes(Routes& routes, IntakeLinks& links) {
  RouteEntry page =
      intakeRoute(links,
                  RouteAttributes{.access = Access::kPublic,
                                  .rate_window = RateWindow::kReplica,
                                  .rpcs = {"LinksService/GetLinkBySlug"}},
                  [](const ContextPtr&, Respond respond, std::shared_ptr<const IntakeForm> form) {
                    respond(pageResponse(200, form->page_html));
                  });
  // An unknown slug is a page too, for people; API clients read the status.
  page.run = [run = std::move(page.run)](const ContextPtr& ctx, Respond respond) {
    run(ctx, [respond](HttpResponse response) {
      respond(response.status == 404 ? notFoundPage() : std::move(response));
    });
  };
  routes.add(Method::kGet, "/i/{slug}", std::move(page));
  for (const auto& asset : pageAssets()) {
    routes.add(Method::kGet, asset.path,
               {RouteAttributes{.access = Access::kAsset},
                [&asset](const ContextPtr& ctx, Respond respond) {
                  respond(assetResponse(*ctx, asset));
                }});
  }
}

}  // namespace feedback::gateway
