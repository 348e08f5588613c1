#include "services/responses/redis_link_counts.h"

#include "common/core/errors.h"
#include "common/core/log.h"
#include "common/redis/response_counts.h"

namespace feedback::responses {

RedisLinkCounts::RedisLinkCounts(RedisClient& redis, Counters& counters,
                                 std::chrono::milliseconds retry_every)
    : redis_(redis), counters_(counters), retry_every_(retry_every) {
  counters_.gauge("response_counts_unsettled_links", [this] {
    std::lock_guard lock(mutex_);
    return static_cast<double>(owed_.size());
  });
  retrier_ = std::thread([this] { retryLoop(); });
}

RedisLinkCounts::~RedisLinkCounts() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  retrier_.join();
}

void RedisLinkCounts::begin(const std::string& link_uuid, int64_t submissions) {
  auto reply = redis_.commandSync({"EVAL", std::string(responsecount::kBeginScript), "1",
                                   responsecount::redisKey(link_uuid), std::to_string(submissions),
                                   std::to_string(responsecount::kTtlSeconds)});
  if (!reply || reply->type == RedisReply::Type::kError) {
    counters_.increment("response_count_begin_failures_total");
    log::warn("response_count_unavailable", {{"link_uuid", link_uuid}});
    // Committing now could leave gateways showing a count without this submission.
    throw ApiError(ErrorCode::kServiceUnavailable,
                   "Responses cannot be recorded right now; please retry.");
  }
}

bool RedisLinkCounts::trySettle(const std::string& link_uuid, const Owed& owed) {
  auto reply = redis_.commandSync({"EVAL", std::string(responsecount::kSettleScript), "1",
                                   responsecount::redisKey(link_uuid), std::to_string(owed.count),
                                   std::to_string(owed.settlements),
                                   std::to_string(responsecount::kTtlSeconds)});
  return reply && reply->type != RedisReply::Type::kError;
}

void RedisLinkCounts::settle(const std::string& link_uuid, std::optional<int64_t> completed,
                             int64_t submissions) {
  Owed owed{completed.value_or(-1), submissions};
  if (trySettle(link_uuid, owed)) return;
  counters_.increment("response_count_settle_failures_total");
  std::lock_guard lock(mutex_);
  if (owed_.empty()) log::warn("response_counts_unsettled", {{"link_uuid", link_uuid}});
  Owed& total = owed_[link_uuid];
  total.count = std::max(total.count, owed.count);
  total.settlements += owed.settlements;
}

void RedisLinkCounts::retryLoop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, retry_every_, [this] { return stopping_; });
    if (stopping_ || owed_.empty()) continue;
    auto batch = std::move(owed_);
    owed_.clear();
    lock.unlock();
    std::map<std::string, Owed> failed;
    for (const auto& [link, owed] : batch) {
      if (!trySettle(link, owed)) failed.emplace(link, owed);
    }
    lock.lock();
    for (const auto& [link, owed] : failed) {
      Owed& total = owed_[link];
      total.count = std::max(total.count, owed.count);
      total.settlements += owed.settlements;
    }
    if (owed_.empty()) log::info("response_counts_settled", {{"links", batch.size()}});
  }
}

}  // namespace feedback::responses
