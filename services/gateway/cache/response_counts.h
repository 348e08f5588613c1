#pragma once
// response_count of links (completed responses), which the gateway adds to link documents:
// the links service knows links, the responses service knows responses.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/core/errors.h"
#include "common/redis/redis_client.h"
#include "services/gateway/backends/backends.h"
#include "services/gateway/pipeline/request_context.h"

namespace feedback::gateway {

class ResponseCounts {
 public:
  using Counts = std::map<std::string, int64_t>;
  using OnError = std::function<void(const ApiError&)>;

  ResponseCounts(const Backends& backends, RedisClient& redis);
  ~ResponseCounts();

  // The counts of `link_uuids` from the responses service.
  void fetch(const ContextPtr& ctx, std::vector<std::string> link_uuids,
             std::function<void(Counts)> then, OnError on_error);
  // One link's count: `count` when Redis holds one and `pending` says no submission holds the
  // link (the answers to LinkDocuments::prefetch()'s reads, see
  // common/redis/response_counts.h); otherwise from the responses service, whose answer then
  // raises the count in Redis.
  void forLink(const ContextPtr& ctx, const std::string& link_uuid,
               const std::optional<RedisReply>& count, const std::optional<RedisReply>& pending,
               std::function<void(int64_t)> then, OnError on_error);
  // The link's count from the responses service, recorded in Redis (kRecoverScript) when
  // `record` (Redis answered the read before), then `then`.
  void refresh(const ContextPtr& ctx, const std::string& link_uuid, bool record,
               std::function<void(int64_t)> then, OnError on_error);

 private:
  struct Stub;
  std::unique_ptr<Stub> stub_;
  RedisClient& redis_;
};

// The integer a Redis GET answered; nullopt when Redis did not answer or holds no number.
std::optional<int64_t> redisInteger(const std::optional<RedisReply>& reply);
std::optional<int64_t> redisInteger(const RedisReply& reply);

}  // namespace feedback::gateway
