#pragma once
// One file per resource registers its routes; main wires them with the backends and the
// gateway's shared parts.

#include "common/api/media_urls.h"
#include "services/gateway/auth/revoked_keys.h"
#include "services/gateway/backends/backends.h"
#include "services/gateway/cache/intake_links.h"
#include "services/gateway/cache/kept_pages.h"
#include "services/gateway/cache/link_documents.h"
#include "services/gateway/cache/response_counts.h"
#include "services/gateway/cache/response_page_cache.h"
#include "services/gateway/metrics.h"
#include "services/gateway/pipeline/request_context.h"

namespace feedback::gateway {

class SubmissionBatcher;  // submission_batcher.h: only the intake's routes use the responses API

// GET/POST /v1/tokens/, DELETE /v1/tokens/{uuid}/ (tokens_routes.cc).
// A revocation is recorded in `revoked` before DELETE answers.
void addTokensRoutes(Routes& routes, const Backends& backends, RevokedKeys& revoked);
// GET/POST /v1/links/, GET/PATCH/DELETE /v1/links/{uuid}/ (links_routes.cc).
void addLinksRoutes(Routes& routes, const Backends& backends, LinkDocuments& documents,
                    ResponseCounts& counts);
// GET/POST /v1/workspaces/{uuid}/webhooks/, GET/DELETE .../webhooks/{uuid}/, GET
// .../deliveries/, POST .../deliveries/{uuid}/redeliver/ and POST .../test/ (webhooks_routes.cc).
void addWebhooksRoutes(Routes& routes, const Backends& backends);
// GET /v1/links/{uuid}/responses/, GET /v1/links/{uuid}/responses/{uuid}/, GET /v1/responses/
// (responses_routes.cc).
void addResponsesRoutes(Routes& routes, const Backends& backends, LinkDocuments& documents,
                        KeptPages& pages);
// DELETE /v1/links/{uuid}/responses/{uuid}/ and POST /v1/responses/erase/ (erasure_routes.cc).
void addErasureRoutes(Routes& routes, const Backends& backends);
// POST/GET /v1/links/{uuid}/reports/, DELETE .../reports/{uuid}/ and the report pages,
// /r/{report_token} (report_routes.cc).
void addReportRoutes(Routes& routes, const Backends& backends);
// The public intake, /i/{slug}/... (intake_routes.cc); one-call submissions go through
// `submissions`.
void addIntakeRoutes(Routes& routes, const Backends& backends, IntakeLinks& links,
                     SubmissionBatcher& submissions);
// Respondents' files and recordings: uploads, signed reads (/media/{uuid}) and prompts read
// aloud (media_routes.cc).
void addMediaRoutes(Routes& routes, const Backends& backends, IntakeLinks& links,
                    const api::MediaUrls& urls);
// The intake page, GET /i/{slug}, and its scripts and styles (page_routes.cc).
void addPageRoutes(Routes& routes, IntakeLinks& links);
// GET /v1/openapi.json and its rendering, GET /v1/docs/ (docs_routes.cc).
void addDocsRoutes(Routes& routes);

}  // namespace feedback::gateway
