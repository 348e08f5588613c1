#include "services/gateway/cache/link_documents.h"

#include "common/redis/link_versions.h"
#include "common/redis/redis_script.h"
#include "common/redis/response_counts.h"
#include "feedback/links/v1/links.grpc.pb.h"
#include "services/gateway/backends/backend_call.h"
#include "services/gateway/cache/redis_fill.h"
#include "services/gateway/json/link_json.h"

namespace feedback::gateway {

namespace lv1 = feedback::links::v1;

namespace {

// Sent with every link read, so by its SHA-1: a few bytes instead of the script's text.
const RedisScript& readScript() {
  static const RedisScript script(responsecount::kReadScript);
  return script;
}

}  // namespace

struct LinkDocuments::Stub {
  std::unique_ptr<lv1::LinksService::Stub> links;
};

LinkDocuments::LinkDocuments(const Backends& backends, LinkCache& cache, RedisClient& redis,
                             Metrics& metrics, ResponseCounts& counts)
    : stub_(std::make_unique<Stub>(Stub{lv1::LinksService::NewStub(backends.links)})),
      cache_(cache),
      redis_(redis),
      metrics_(metrics),
      counts_(counts) {
  redis_.addScript(readScript().text());
}

LinkDocuments::~LinkDocuments() = default;

std::optional<RedisReply> LinkDocuments::part(const std::optional<RedisReply>& read,
                                              ReadPart which) {
  if (!read) return std::nullopt;
  if (read->type != RedisReply::Type::kArray || read->elements.size() != 4) {
    return RedisReply{RedisReply::Type::kError};
  }
  return read->elements[static_cast<std::size_t>(which)];
}

std::vector<RedisCommand> LinkDocuments::prefetch(const std::string& link_uuid) {
  return {readScript().call(
      {linkversion::redisKey(link_uuid), responsecount::countKey(link_uuid),
       responsecount::pendingKey(link_uuid), responsecount::changesKey(link_uuid)},
      {})};
}

void LinkDocuments::serve(const ContextPtr& ctx, const std::string& link_uuid,
                          const std::optional<RedisReply>& read, Respond respond) {
  auto count = part(read, ReadPart::kCount), pending = part(read, ReadPart::kPending);
  find(
      ctx, link_uuid, part(read, ReadPart::kVersion),
      [this, ctx, link_uuid, count, pending, respond](std::shared_ptr<const LinkDocument> doc) {
        counts_.forLink(
            ctx, link_uuid, count, pending,
            [doc, respond](int64_t n) { respond(jsonResponse(200, doc->withCount(n))); },
            answerError(ctx, respond));
      },
      respond);
}

void LinkDocuments::require(const ContextPtr& ctx, const std::string& link_uuid,
                            const std::optional<RedisReply>& read, std::function<void()> then,
                            Respond respond) {
  find(
      ctx, link_uuid, part(read, ReadPart::kVersion),
      [then = std::move(then)](std::shared_ptr<const LinkDocument>) { then(); },
      std::move(respond));
}

void LinkDocuments::document(const ContextPtr& ctx, const std::string& link_uuid,
                             const std::optional<RedisReply>& read, Found then, Respond respond) {
  find(ctx, link_uuid, part(read, ReadPart::kVersion), std::move(then), std::move(respond));
}

void LinkDocuments::find(const ContextPtr& ctx, const std::string& link_uuid,
                         const std::optional<RedisReply>& version_reply, Found then,
                         Respond respond) {
  const std::string& workspace_uuid = ctx->caller->workspace().uuid();
  // nullopt: Redis did not answer, so the cache cannot be trusted; 0: no version recorded.
  std::optional<int64_t> version;
  if (version_reply && version_reply->type != RedisReply::Type::kError) {
    version = redisInteger(version_reply).value_or(0);
  }
  if (!version) {
    ++metrics_.link_cache_bypassed;
  } else if (*version > 0) {
    if (auto doc = cache_.find(link_uuid, workspace_uuid, *version)) {
      ++metrics_.link_cache_hits;
      return then(std::move(doc));
    }
  }
  if (version) ++metrics_.link_cache_misses;
  lv1::GetLinkRequest request;
  *request.mutable_caller() = *ctx->caller;
  request.set_link_uuid(link_uuid);
  auto& stub = *stub_->links;
  callAsync<lv1::GetLinkResponse>(
      ctx, std::move(request),
      [&stub](auto* c, auto* q, auto* r, auto done) {
        stub.async()->GetLink(c, q, r, std::move(done));
      },
      [this, ctx, version, then = std::move(then)](const lv1::GetLinkResponse& r) {
        const auto& link = r.link();
        auto doc = std::make_shared<const LinkDocument>(renderLinkDocument(link));
        if (version) {
          cache_.store(link.uuid(), ctx->caller->workspace().uuid(), link.version(), doc);
          if (*version < link.version()) {
            // Record the version so that later reads can use the cache; raising is
            // monotonic, so a concurrent change always wins.
            raiseInRedis(redis_, linkversion::redisKey(link.uuid()), link.version(),
                         linkversion::kTtlSeconds);
          }
        }
        then(std::move(doc));
      },
      answerError(ctx, respond));
}

}  // namespace feedback::gateway
