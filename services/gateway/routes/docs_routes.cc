// GET /v1/openapi.json: the API's description (services/gateway/openapi/openapi.json, lint-clean
// under Redocly's rules, compiled in). No key: generated clients and documentation read it.
#include "common/core/crypto.h"
#include "services/gateway/routes/routes.h"

namespace feedback::gateway {

namespace openapi {
extern const std::string_view kDocument;
}  // namespace openapi

void addDocsRoutes(Routes& routes) {
  const std::string etag = "\"" + crypto::sha256Hex(openapi::kDocument).substr(0, 16) + "\"";
  routes.add(Method::kGet, "/v1/openapi.json",
             {assetRoute(), [etag](const ContextPtr& ctx, Respond respond) {
                HttpResponse response;
                response.setHeader("Cache-Control", "public, max-age=300");
                response.setHeader("ETag", etag);
                if (ctx->request.header("if-none-match") == etag) {
                  response.status = 304;
                  return respond(std::move(response));
                }
                response.setHeader("Content-Type", "application/json");
                response.body = std::string(openapi::kDocument);
                respond(std::move(response));
              }});
}

}  // namespace feedback::gateway
