#pragma once

#include "common/redis/redis_client.h"
#include "services/links/links_store.h"

namespace feedback::links {

// LinkVersions on the shared Redis. Runs on worker threads, so it may wait for answers.
class RedisLinkVersions final : public LinkVersions {
 public:
  explicit RedisLinkVersions(RedisClient& redis) : redis_(redis) {}
  void raise(const std::string& link_uuid, int64_t version) override;

 private:
  RedisClient& redis_;
};

}  // namespace feedback::links
