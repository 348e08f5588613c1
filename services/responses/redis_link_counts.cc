#include "services/responses/redis_link_counts.h"

#include <limits>

#include "common/core/errors.h"
#include "common/core/ids.h"
#include "common/core/log.h"
#include "common/core/time.h"
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
  // One last try for each link, each bounded by the Redis timeout.
  for (const auto& [link, owed] : owed_) {
    if (!trySettle(link, owed)) log::warn("response_count_left_pending", {{"link_uuid", link}});
  }
}

void RedisLinkCounts::begin(const std::string& link_uuid,
                            const std::vector<std::string>& submissions) {
  std::vector<std::string> command{"EVAL",
                                   std::string(responsecount::kBeginScript),
                                   "1",
                                   responsecount::pendingKey(link_uuid),
                                   std::to_string(responsecount::kTtlSeconds),
                                   std::to_string(nowMicros() / 1000)};
  command.insert(command.end(), submissions.begin(), submissions.end());
  auto reply = redis_.commandSync(std::move(command));
  if (!reply || reply->type == RedisReply::Type::kError) {
    counters_.increment("response_count_begin_failures_total");
    log::warn("response_count_unavailable", {{"link_uuid", link_uuid}});
    // Committing now could leave gateways showing a count without these submissions.
    throw ApiError(ErrorCode::kServiceUnavailable,
                   "Responses cannot be recorded right now; please retry.");
  }
}

bool RedisLinkCounts::trySettle(const std::string& link_uuid, const Owed& owed) {
  if (!owed.removals.empty() && !tryRemove(link_uuid, owed.removals)) return false;
  // A read this old may hold responses an erasure removed since: the scripts record no such
  // count, so its submissions stay pending, for a fresh read to end.
  const bool stale =
      owed.count >= 0 && owed.read_started_ms < nowMicros() / 1000 -
                                                    responsecount::kLoweredTtlSeconds * 1000LL +
                                                    responsecount::kClockSkewMarginMs;
  const bool read = owed.count >= 0 && !stale;
  if (!read && (stale || owed.submissions.empty())) return true;
  std::vector<std::string> command{
      "EVAL",
      std::string(responsecount::kSettleScript),
      "4",
      responsecount::countKey(link_uuid),
      responsecount::pendingKey(link_uuid),
      responsecount::changesKey(link_uuid),
      responsecount::loweredKey(link_uuid),
      std::to_string(read ? owed.count : -1),
      std::to_string(responsecount::kTtlSeconds),
      newUuid(),
      std::to_string(read ? owed.read_started_ms : 0),
      std::to_string(read ? responsecount::settledBefore(owed.read_started_ms) : 0),
      std::to_string(responsecount::kClockSkewMarginMs),
      std::to_string(responsecount::kLoweredTtlSeconds)};
  command.insert(command.end(), owed.submissions.begin(), owed.submissions.end());
  auto reply = redis_.commandSync(std::move(command));
  return reply && reply->type != RedisReply::Type::kError;
}

bool RedisLinkCounts::tryRemove(const std::string& link_uuid,
                                const std::set<std::string>& removals) {
  // Timed now, after the commit: a later time than the commit's only sets more reads aside.
  std::vector<std::string> command{"EVAL",
                                   std::string(responsecount::kRemovedScript),
                                   "4",
                                   responsecount::countKey(link_uuid),
                                   responsecount::pendingKey(link_uuid),
                                   responsecount::changesKey(link_uuid),
                                   responsecount::loweredKey(link_uuid),
                                   std::to_string(responsecount::kTtlSeconds),
                                   newUuid(),
                                   std::to_string(nowMicros() / 1000),
                                   std::to_string(responsecount::kLoweredTtlSeconds)};
  command.insert(command.end(), removals.begin(), removals.end());
  auto reply = redis_.commandSync(std::move(command));
  return reply && reply->type != RedisReply::Type::kError;
}

void RedisLinkCounts::settle(const std::string& link_uuid, std::optional<CountRead> count,
                             const std::vector<std::string>& submissions) {
  // Without a count nothing is trimmed; merged with one, the earliest read wins.
  Owed owed{count ? count->completed : -1,
            count ? count->started_ms : std::numeric_limits<int64_t>::max(),
            {submissions.begin(), submissions.end()},
            {}};
  if (trySettle(link_uuid, owed)) return;
  keepOwed(link_uuid, std::move(owed));
}

void RedisLinkCounts::settleRemoval(const std::string& link_uuid,
                                    const std::vector<std::string>& removals) {
  Owed owed{-1, std::numeric_limits<int64_t>::max(), {}, {removals.begin(), removals.end()}};
  if (trySettle(link_uuid, owed)) return;
  keepOwed(link_uuid, std::move(owed));
}

void RedisLinkCounts::keepOwed(const std::string& link_uuid, Owed owed) {
  counters_.increment("response_count_settle_failures_total");
  std::lock_guard lock(mutex_);
  if (owed_.empty()) log::warn("response_counts_unsettled", {{"link_uuid", link_uuid}});
  owe(link_uuid, std::move(owed));
}

void RedisLinkCounts::owe(const std::string& link_uuid, Owed owed) {
  auto [it, first] = owed_.try_emplace(link_uuid, std::move(owed));  // moves only when first
  if (first) return;
  Owed& total = it->second;
  total.count = std::max(total.count, owed.count);
  total.read_started_ms = std::min(total.read_started_ms, owed.read_started_ms);
  total.submissions.merge(owed.submissions);
  total.removals.merge(owed.removals);
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
    for (auto& [link, owed] : failed) owe(link, std::move(owed));
    if (owed_.empty()) log::info("response_counts_settled", {{"links", batch.size()}});
  }
}

}  // namespace feedback::responses
