#pragma once
// CountPublisher on the shared Redis. A submission is never refused because Redis is down:
// its count is kept and raised again in the background until Redis answers, and every later
// submission into the link raises it anyway.

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "common/core/counters.h"
#include "common/redis/redis_client.h"
#include "services/responses/responses_store.h"

namespace feedback::responses {

class RedisCountPublisher final : public CountPublisher {
 public:
  RedisCountPublisher(RedisClient& redis, Counters& counters,
                      std::chrono::milliseconds retry_every = std::chrono::milliseconds(500));
  ~RedisCountPublisher() override;

  void publish(const std::string& link_uuid, int64_t completed) override;

 private:
  bool raise(const std::string& link_uuid, int64_t completed);
  void retryLoop();

  RedisClient& redis_;
  Counters& counters_;
  const std::chrono::milliseconds retry_every_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, int64_t> pending_;  // link uuid -> highest count not yet published
  bool stopping_ = false;
  std::thread retrier_;
};

}  // namespace feedback::responses
