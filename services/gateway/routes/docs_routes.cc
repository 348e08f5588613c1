// GET /v1/openapi.json: the API's description (services/gateway/openapi/openapi.json, lint-clean
// under Redocly's rules, compiled in). No key: generated clients and documentation read it.
// GET /v1/docs/: the description rendered by Redoc, served from the binary (no CDN).
#include "common/core/crypto.h"
#include "services/gateway/routes/routes.h"

namespace feedback::gateway {

namespace openapi {
extern const std::string_view kDocument;
extern const std::string_view kRedoc;
}  // namespace openapi

namespace {

// Redoc renders with inline styles and a worker made from a blob.
constexpr std::string_view kDocsPolicy =
    "default-src 'none'; script-src 'self' blob:; worker-src blob:; style-src 'self' "
    "'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'";

// `content` with its tag; 304 when the client has it.
RouteEntry fixedContent(std::string_view content, std::string content_type,
                        std::string cache_control, std::string policy = {}) {
  const std::string etag = "\"" + crypto::sha256Hex(content).substr(0, 16) + "\"";
  return {RouteAttributes{.access = Access::kAsset}, [=](const ContextPtr& ctx, Respond respond) {
            HttpResponse response;
            response.setHeader("Cache-Control", cache_control);
            response.setHeader("ETag", etag);
            response.setHeader("X-Content-Type-Options", "nosniff");
            if (!policy.empty()) response.setHeader("Content-Security-Policy", policy);
            if (ctx->request.header("if-none-match") == etag) {
              response.status = 304;
              return respond(std::move(response));
            }
            response.setHeader("Content-Type", content_type);
            response.body = std::string(content);
            respond(std::move(response));
          }};
}

}  // namespace

void addDocsRoutes(Routes& routes) {
  routes.add(Method::kGet, "/v1/openapi.json",
             fixedContent(openapi::kDocument, "application/json", "public, max-age=300"));
  const std::string redoc_version = crypto::sha256Hex(openapi::kRedoc).substr(0, 16);
  routes.add(Method::kGet, "/static/redoc.standalone.js",
             fixedContent(openapi::kRedoc, "text/javascript; charset=utf-8",
                          "public, max-age=31536000, immutable"));
  static const std::string page =
      "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
      "content=\"width=device-width, initial-scale=1\"><link rel=\"icon\" href=\"data:,\">"
      "<title>Feedback collection API</title>"
      "</head><body><redoc spec-url=\"/v1/openapi.json\"></redoc><script "
      "src=\"/static/redoc.standalone.js?v=" +
      redoc_version + "\"></script></body></html>";
  routes.add(Method::kGet, "/v1/docs/",
             fixedContent(page, "text/html; charset=utf-8", "no-cache", std::string(kDocsPolicy)));
}

}  // namespace feedback::gateway
