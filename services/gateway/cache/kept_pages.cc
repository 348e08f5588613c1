#include "services/gateway/cache/kept_pages.h"

#include "common/core/ids.h"
#include "common/redis/response_counts.h"
#include "services/gateway/cache/link_documents.h"

namespace feedback::gateway {

KeptPages::Plan KeptPages::plan(const ContextPtr& ctx, const std::string& link_uuid,
                                const std::string& key, bool fresh) {
  using Part = LinkDocuments::ReadPart;
  const auto& read = ctx->redis.routeRead(0);
  auto count = LinkDocuments::part(read, Part::kCount);
  auto pending = LinkDocuments::part(read, Part::kPending);
  auto changes = LinkDocuments::part(read, Part::kChanges);
  Plan plan;
  plan.read_at = ctx->redis.sentAt();
  plan.validity = completedPagesValidity(count, pending, changes, ctx->redis.epoch());
  if (!plan.validity) {
    ++metrics_.response_page_cache_bypassed;
    const bool token_readable = changes && (changes->type == RedisReply::Type::kNil ||
                                            changes->type == RedisReply::Type::kString);
    const bool nothing_pending =
        pending && pending->type == RedisReply::Type::kInteger && pending->integer == 0;
    if (token_readable && count && count->type == RedisReply::Type::kString && nothing_pending) {
      giveFirstToken(link_uuid, count->str);
    } else if (count && count->type == RedisReply::Type::kNil && nothing_pending) {
      // Beside this read, not before it: the next read finds the count and gives a token. A
      // failure costs nothing but the next read's asking again.
      counts_.refresh(
          ctx, link_uuid, true, [](int64_t) {}, [](const ApiError&) {});
    }
    return plan;
  }
  if (fresh) {
    ++metrics_.response_page_cache_bypassed;
  } else if ((plan.kept = cache_.find(key, *plan.validity))) {
    ++metrics_.response_page_cache_hits;
  } else {
    ++metrics_.response_page_cache_misses;
  }
  return plan;
}

void KeptPages::keep(const std::string& key, const Plan& plan,
                     std::shared_ptr<const CachedPage> page) {
  cache_.store(key, *plan.validity, plan.read_at, std::move(page));
}

void KeptPages::giveFirstToken(const std::string& link_uuid, const std::string& count) {
  redis_.command({"EVAL", std::string(responsecount::kFirstTokenScript), "2",
                  responsecount::countKey(link_uuid), responsecount::changesKey(link_uuid), count,
                  newUuid(), std::to_string(responsecount::kTtlSeconds)},
                 [](std::optional<RedisReply>) {});
}

}  // namespace feedback::gateway
