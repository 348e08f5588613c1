#include "services/gateway/cache/intake_links.h"

#include "common/redis/link_versions.h"
#include "feedback/links/v1/links.grpc.pb.h"
#include "services/gateway/backends/backend_call.h"
#include "services/gateway/cache/redis_fill.h"
#include "services/gateway/cache/response_counts.h"
#include "services/gateway/http/responses.h"
#include "services/gateway/json/link_json.h"
#include "services/gateway/page/intake_page.h"

namespace feedback::gateway {

namespace lv1 = feedback::links::v1;

namespace {

std::string keyOf(const RequestContext& ctx, const std::string& slug) {
  return ctx.caller->workspace().uuid() + "/" + slug;
}

}  // namespace

struct IntakeLinks::Stub {
  std::unique_ptr<lv1::LinksService::Stub> links;
};

IntakeLinks::IntakeLinks(const Backends& backends, RedisClient& redis, std::size_t max_entries)
    : stub_(std::make_unique<Stub>(Stub{lv1::LinksService::NewStub(backends.links)})),
      redis_(redis),
      max_entries_(max_entries) {}

IntakeLinks::~IntakeLinks() = default;

std::shared_ptr<const IntakeForm> IntakeLinks::cached(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : it->second;
}

void IntakeLinks::store(const std::string& key, std::shared_ptr<const IntakeForm> form) {
  if (max_entries_ == 0) return;
  std::lock_guard lock(mutex_);
  if (entries_.size() >= max_entries_ && !entries_.count(key)) entries_.erase(entries_.begin());
  entries_[key] = std::move(form);
}

std::vector<RedisCommand> IntakeLinks::prefetch(const RequestContext& ctx,
                                                const std::string& slug) {
  auto form = cached(keyOf(ctx, slug));
  if (!form) return {};
  return {{"GET", linkversion::redisKey(form->link.uuid())}};
}

void IntakeLinks::find(const ContextPtr& ctx, const std::string& slug,
                       const std::optional<RedisReply>& version,
                       std::function<void(std::shared_ptr<const IntakeForm>)> then,
                       Respond respond) {
  const std::string key = keyOf(*ctx, slug);
  if (auto form = cached(key)) {
    // The version read must be this link's: the entry may have changed since the read.
    const std::string version_key = linkversion::redisKey(form->link.uuid());
    const bool same_link = ctx->redis.routeReads() > 0 && ctx->redis.keyRead(0) == version_key;
    auto current = redisInteger(version);
    if (same_link && current && *current == form->link.version()) return then(std::move(form));
  }
  lv1::GetLinkBySlugRequest request;
  *request.mutable_caller()->mutable_workspace() = ctx->caller->workspace();
  request.set_slug(slug);
  auto& stub = *stub_->links;
  callAsync<lv1::GetLinkBySlugResponse>(
      ctx, std::move(request),
      [&stub](auto* c, auto* q, auto* r, auto done) {
        stub.async()->GetLinkBySlug(c, q, r, std::move(done));
      },
      [this, ctx, key, then = std::move(then)](const lv1::GetLinkBySlugResponse& r) {
        auto form = std::make_shared<IntakeForm>();
        form->workspace_uuid = ctx->caller->workspace().uuid();
        form->link = r.link();
        form->form_json = renderForm(form->link);
        form->page_html = renderIntakePage(form->link, form->form_json);
        // Recorded so that the next request can check this entry in its round trip (an
        // entry is only ever used after that check, so storing is always safe).
        raiseInRedis(redis_, linkversion::redisKey(form->link.uuid()), form->link.version(),
                     linkversion::kTtlSeconds);
        store(key, form);
        then(std::move(form));
      },
      answerError(ctx, respond));
}

RouteEntry intakeRoute(IntakeLinks& links, RouteAttributes attributes, WithForm handle) {
  return {attributes,
          [&links, handle = std::move(handle)](const ContextPtr& ctx, Respond respond) {
            links.find(
                ctx, ctx->params.at(0), ctx->redis.routeRead(0),
                [ctx, respond, handle](std::shared_ptr<const IntakeForm> form) {
                  try {
                    handle(ctx, respond, std::move(form));
                  } catch (const ApiError& e) {
                    respond(errorResponse(e, ctx->request_id));
                  }
                },
                respond);
          },
          [&links](const RequestContext& ctx) { return links.prefetch(ctx, ctx.params.at(0)); }};
}

}  // namespace feedback::gateway
