#include "services/gateway/gateway_routes.h"

#include <algorithm>

#include "common/core/json_writer.h"

namespace feedback::gateway {
namespace {

std::string_view accessName(Access access) {
  switch (access) {
    case Access::kApiKey:
      return "api_key";
    case Access::kPublic:
      return "public";
    case Access::kAsset:
      return "asset";
  }
  return "unknown";
}

// A source file's path from the repository's root: the compiler names it as it was given.
std::string_view repositoryPath(std::string_view file) {
  const auto at = file.rfind("services/gateway/");
  return at == std::string_view::npos ? file : file.substr(at);
}

}  // namespace

GatewayRoutes::GatewayRoutes(const GatewayConfig& config, const Backends& backends,
                             RedisClient& redis, Metrics& metrics, RevokedKeys& revoked)
    : link_cache_(config.link_cache_entries, config.link_cache_bytes),
      counts_(backends, redis),
      documents_(backends, link_cache_, redis, metrics, counts_),
      intake_links_(backends, redis, config.link_cache_entries),
      page_cache_(config.response_page_cache_bytes, config.response_page_max_age),
      pages_{page_cache_, redis, metrics, counts_},
      submissions_(SubmissionBatcher::callsTo(backends.responses),
                   {.max_calls = config.submission_calls}),
      media_urls_(config.secrets_key, config.public_scheme) {
  addTokensRoutes(routes_, backends, revoked);
  addLinksRoutes(routes_, backends, documents_, counts_);
  addWebhooksRoutes(routes_, backends);
  addResponsesRoutes(routes_, backends, documents_, pages_);
  addErasureRoutes(routes_, backends);
  addReportRoutes(routes_, backends);
  addIntakeRoutes(routes_, backends, intake_links_, submissions_);
  addMediaRoutes(routes_, backends, intake_links_, media_urls_);
  addPageRoutes(routes_, intake_links_);
  addDocsRoutes(routes_);
  for (const auto& route : routes_.all()) {
    metrics.routes.add(&route.entry, route.pattern(), std::string(methodName(route.method)));
  }
}

HttpServerOptions GatewayRoutes::withBodyLimits(HttpServerOptions options) const {
  options.large_body_limit = [this](std::string_view method, std::string_view target) {
    auto found = routes_.resolve(method, target.substr(0, target.find('?')));
    return found.route ? found.route->entry.attributes.raw_body_limit : std::size_t{0};
  };
  for (const auto& route : routes_.all()) {
    options.largest_body_limit =
        std::max(options.largest_body_limit, route.entry.attributes.raw_body_limit);
  }
  return options;
}

std::string GatewayRoutes::describe() const {
  std::string out;
  JsonWriter json(out);
  json.beginArray();
  for (const auto& route : routes_.all()) {
    const auto& a = route.entry.attributes;
    json.beginObject()
        .field("method", methodName(route.method))
        .field("pattern", route.pattern())
        .field("access", accessName(a.access));
    json.key("scope");
    if (a.access == Access::kApiKey) {
      json.string(a.scope);
    } else {
      json.null();
    }
    json.field("idempotent", a.idempotent)
        .field("response_token", a.response_token)
        .field("upload", a.raw_body_limit > 0)
        .field("handler", repositoryPath(route.source));
    json.key("rpcs").beginArray();
    for (auto rpc : a.rpcs) json.string(rpc);
    json.endArray().endObject();
  }
  json.endArray();
  return out;
}

}  // namespace feedback::gateway
