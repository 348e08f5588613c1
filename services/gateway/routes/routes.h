#pragma once
// One file per resource registers its routes; main wires them with the backend stubs.

#include "common/redis/redis_client.h"
#include "feedback/links/v1/links.grpc.pb.h"
#include "feedback/tokens/v1/tokens.grpc.pb.h"
#include "services/gateway/auth/revoked_keys.h"
#include "services/gateway/metrics.h"
#include "services/gateway/routes/link_cache.h"
#include "services/gateway/routes/request_context.h"

namespace feedback::gateway {

// GET/POST /v1/tokens/, DELETE /v1/tokens/{uuid}/ (tokens_routes.cc).
// A revocation is recorded in `revoked` before DELETE answers.
void addTokensRoutes(Routes& routes, feedback::tokens::v1::TokensService::Stub& tokens,
                     RevokedKeys& revoked);
// GET/POST /v1/links/, GET/PATCH/DELETE /v1/links/{uuid}/ (links_routes.cc). Link documents
// are served from `cache` when their version in Redis allows it.
void addLinksRoutes(Routes& routes, feedback::links::v1::LinksService::Stub& links,
                    LinkCache& cache, RedisClient& redis, Metrics& metrics);

}  // namespace feedback::gateway
