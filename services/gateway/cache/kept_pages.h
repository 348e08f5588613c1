#pragma once
// A link's pages of completed responses kept by the gateway (response_page_cache.h), and the
// one place that decides, from the link's read in the request's round trip
// (LinkDocuments::prefetch: its count, pending submissions and changes token), whether a list
// is answered by a kept page, and whether the page it reads may be kept. When Redis lacks what
// keeping needs (the link's count, or a token naming it), it asks for it beside the read, so
// that later reads can keep pages.

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "common/redis/redis_client.h"
#include "services/gateway/cache/response_counts.h"
#include "services/gateway/cache/response_page_cache.h"
#include "services/gateway/metrics.h"
#include "services/gateway/pipeline/request_context.h"

namespace feedback::gateway {

class KeptPages {
 public:
  KeptPages(ResponsePageCache& cache, RedisClient& redis, Metrics& metrics, ResponseCounts& counts)
      : cache_(cache), redis_(redis), metrics_(metrics), counts_(counts) {}

  bool enabled() const { return cache_.enabled(); }

  // What a read of the completed responses of `link_uuid` does with the page under `key`.
  struct Plan {
    // Serve this page: it is current.
    std::shared_ptr<const CachedPage> kept;
    // Otherwise the page is read, and kept under this validity when there is one.
    std::optional<std::string> validity;
    std::chrono::steady_clock::time_point read_at;
  };
  // `ctx.redis` holds the link's read at slot 0; `fresh`: the client asked for the page read
  // afresh (Cache-Control: no-cache), so none is served, though the one read may be kept.
  Plan plan(const ContextPtr& ctx, const std::string& link_uuid, const std::string& key,
            bool fresh);
  // Keeps `page`, read under `plan` (whose validity is set), under `key`.
  void keep(const std::string& key, const Plan& plan, std::shared_ptr<const CachedPage> page);

 private:
  // A token for `count` when the link's is missing or names another count
  // (common/redis/response_counts.h, kFirstTokenScript).
  void giveFirstToken(const std::string& link_uuid, const std::string& count);

  ResponsePageCache& cache_;
  RedisClient& redis_;
  Metrics& metrics_;
  ResponseCounts& counts_;
};

}  // namespace feedback::gateway
