#pragma once
// Every route of the gateway with the parts its handlers share (link and page caches, response
// counts, the batcher of one-call submissions, media addresses), built once from the
// configuration: what main serves, what the fuzz targets drive (tests/fuzz/) and the route
// table the admin port lists (GET /routes), so that all three are the same table.

#include <string>
#include <string_view>

#include "common/api/media_urls.h"
#include "common/redis/redis_client.h"
#include "services/gateway/auth/revoked_keys.h"
#include "services/gateway/backends/backends.h"
#include "services/gateway/backends/submission_batcher.h"
#include "services/gateway/cache/intake_links.h"
#include "services/gateway/cache/link_cache.h"
#include "services/gateway/cache/link_documents.h"
#include "services/gateway/cache/response_counts.h"
#include "services/gateway/cache/response_page_cache.h"
#include "services/gateway/gateway_config.h"
#include "services/gateway/metrics.h"
#include "services/gateway/routes/routes.h"

namespace feedback::gateway {

class GatewayRoutes {
 public:
  // Registers every route, and its slot in `metrics`.
  GatewayRoutes(const GatewayConfig& config, const Backends& backends, RedisClient& redis,
                Metrics& metrics, RevokedKeys& revoked);
  GatewayRoutes(const GatewayRoutes&) = delete;
  GatewayRoutes& operator=(const GatewayRoutes&) = delete;

  const Routes& routes() const { return routes_; }
  const api::MediaUrls& mediaUrls() const { return media_urls_; }

  // `options` with the body limits the routes declare: uploads take larger bodies than JSON.
  HttpServerOptions withBodyLimits(HttpServerOptions options) const;

  // The route table as JSON, one object per route and method: {"method", "pattern",
  // "access" ("api_key", "public" or "asset"), "scope" (null unless api_key), "idempotent",
  // "response_token", "upload", "handler" (the file that registers it), "rpcs" (the calls
  // its handler makes, "Service/Method")}. Tests generate their calls from it (a new route is
  // covered without being named), and scripts/docs the code map (docs/code-map.md).
  std::string describe() const;

 private:
  LinkCache link_cache_;
  ResponseCounts counts_;
  LinkDocuments documents_;
  IntakeLinks intake_links_;
  ResponsePageCache page_cache_;
  KeptPages pages_;
  SubmissionBatcher submissions_;
  const api::MediaUrls media_urls_;
  Routes routes_;
};

}  // namespace feedback::gateway
