#pragma once
// LinkCounts on the shared Redis (common/redis/response_counts.h). What cannot be settled at
// once is kept and settled in the background until Redis answers; meanwhile the link stays
// pending, so gateways read its count from PostgreSQL.

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "common/core/counters.h"
#include "common/redis/redis_client.h"
#include "services/responses/responses_store.h"

namespace feedback::responses {

class RedisLinkCounts final : public LinkCounts {
 public:
  RedisLinkCounts(RedisClient& redis, Counters& counters,
                  std::chrono::milliseconds retry_every = std::chrono::milliseconds(500));
  ~RedisLinkCounts() override;

  void begin(const std::string& link_uuid, const std::vector<std::string>& submissions) override;
  void settle(const std::string& link_uuid, std::optional<CountRead> count,
              const std::vector<std::string>& submissions) override;
  void settleRemoval(const std::string& link_uuid,
                     const std::vector<std::string>& removals) override;

 private:
  struct Owed {
    int64_t count = -1;  // highest count to raise to; -1: none
    // When the earliest count read started (ms since the epoch); the int64 maximum: none
    int64_t read_started_ms = 0;
    std::set<std::string> submissions;
    // Erasures that committed: the count is dropped (kRemovedScript) before anything else.
    std::set<std::string> removals;
  };
  bool trySettle(const std::string& link_uuid, const Owed& owed);
  bool tryRemove(const std::string& link_uuid, const std::set<std::string>& removals);
  // Records what could not be settled now, for the retry loop.
  void keepOwed(const std::string& link_uuid, Owed owed);
  // Adds to what is owed for the link; the caller holds mutex_.
  void owe(const std::string& link_uuid, Owed owed);
  void retryLoop();

  RedisClient& redis_;
  Counters& counters_;
  const std::chrono::milliseconds retry_every_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, Owed> owed_;  // by link uuid
  bool stopping_ = false;
  std::thread retrier_;
};

}  // namespace feedback::responses
