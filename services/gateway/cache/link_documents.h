#pragma once
// GET /v1/links/{uuid}/ and "does this link exist in the caller's workspace": the link's
// document from the gateway's cache when its version in Redis allows it (common/redis/
// link_versions.h), else from the links service; response_count filled in when served.
// Both the version and the count are read in the request's one Redis round trip: a route
// declares prefetch() and passes the answers back.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "services/gateway/backends/backends.h"
#include "services/gateway/cache/link_cache.h"
#include "services/gateway/cache/response_counts.h"
#include "services/gateway/metrics.h"

namespace feedback::gateway {

class LinkDocuments {
 public:
  LinkDocuments(const Backends& backends, LinkCache& cache, RedisClient& redis, Metrics& metrics,
                ResponseCounts& counts);
  ~LinkDocuments();

  // One read of the link's version, response count, pending submissions and changes token
  // (common/redis/response_counts.h).
  static std::vector<RedisCommand> prefetch(const std::string& link_uuid);
  // A part of the answer to prefetch(); nullopt when Redis did not answer.
  enum class ReadPart : std::size_t { kVersion, kCount, kPending, kChanges };
  static std::optional<RedisReply> part(const std::optional<RedisReply>& read, ReadPart which);

  // Answers 200 with the document (with its count), or the error (404 when there is none).
  // `read` is the answer to prefetch().
  void serve(const ContextPtr& ctx, const std::string& link_uuid,
             const std::optional<RedisReply>& read, Respond respond);
  // Runs `then` when the link exists in the caller's workspace; otherwise answers 404 or the
  // error. `read` is the answer to prefetch().
  void require(const ContextPtr& ctx, const std::string& link_uuid,
               const std::optional<RedisReply>& read, std::function<void()> then, Respond respond);
  // As require(), giving `then` the link's document (response_count not yet filled in).
  using Found = std::function<void(std::shared_ptr<const LinkDocument>)>;
  void document(const ContextPtr& ctx, const std::string& link_uuid,
                const std::optional<RedisReply>& read, Found then, Respond respond);

 private:
  void find(const ContextPtr& ctx, const std::string& link_uuid,
            const std::optional<RedisReply>& version, Found then, Respond respond);

  struct Stub;
  std::unique_ptr<Stub> stub_;
  LinkCache& cache_;
  RedisClient& redis_;
  Metrics& metrics_;
  ResponseCounts& counts_;
};

}  // namespace feedback::gateway
