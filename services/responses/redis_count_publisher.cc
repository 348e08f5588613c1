#include "services/responses/redis_count_publisher.h"

#include "common/core/log.h"
#include "common/redis/response_counts.h"

namespace feedback::responses {

RedisCountPublisher::RedisCountPublisher(RedisClient& redis, Counters& counters,
                                         std::chrono::milliseconds retry_every)
    : redis_(redis), counters_(counters), retry_every_(retry_every) {
  counters_.gauge("response_counts_unpublished", [this] {
    std::lock_guard lock(mutex_);
    return static_cast<double>(pending_.size());
  });
  retrier_ = std::thread([this] { retryLoop(); });
}

RedisCountPublisher::~RedisCountPublisher() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  retrier_.join();
}

bool RedisCountPublisher::raise(const std::string& link_uuid, int64_t completed) {
  auto reply = redis_.commandSync({"EVAL", std::string(redisvalue::kRaiseScript), "1",
                                   responsecount::redisKey(link_uuid), std::to_string(completed),
                                   std::to_string(responsecount::kTtlSeconds)});
  return reply && reply->type != RedisReply::Type::kError;
}

void RedisCountPublisher::publish(const std::string& link_uuid, int64_t completed) {
  if (raise(link_uuid, completed)) return;
  counters_.increment("response_count_publish_failures_total");
  std::lock_guard lock(mutex_);
  if (pending_.empty()) log::warn("response_counts_unpublished", {{"link_uuid", link_uuid}});
  auto& highest = pending_[link_uuid];
  highest = std::max(highest, completed);
}

void RedisCountPublisher::retryLoop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, retry_every_, [this] { return stopping_; });
    if (stopping_ || pending_.empty()) continue;
    auto batch = std::move(pending_);
    pending_.clear();
    lock.unlock();
    std::map<std::string, int64_t> failed;
    for (const auto& [link, count] : batch) {
      if (!raise(link, count)) failed.emplace(link, count);
    }
    lock.lock();
    for (const auto& [link, count] : failed) {
      auto& highest = pending_[link];
      highest = std::max(highest, count);
    }
    if (pending_.empty()) log::info("response_counts_published", {{"links", batch.size()}});
  }
}

}  // namespace feedback::responses
