#include "services/gateway/auth/caller_records.h"

#include "common/redis/key_cache.h"

namespace feedback::gateway {

CallerRecords::CallerRecords(IoThreads* loops) : loops_(loops) {
  if (loops_) by_loop_.resize(loops_->size());
}

CallerRecords::Loop* CallerRecords::here() {
  const std::size_t loop = loops_ ? loops_->current() : IoThreads::kNone;
  return loop == IoThreads::kNone ? nullptr : &by_loop_[loop];
}

CallerPtr CallerRecords::parse(std::string_view record) {
  Loop* loop = here();
  auto* cache = loop ? &loop->by_record : nullptr;
  if (cache) {
    if (auto found = cache->find(record); found != cache->end()) return found->second;
  }
  auto caller = std::make_shared<feedback::common::v1::Caller>();
  if (!keycache::parseRecord(record, *caller)) return nullptr;
  if (cache) {
    if (cache->size() >= kMaxPerLoop) cache->clear();
    cache->emplace(std::string(record), caller);
  }
  return caller;
}

void CallerRecords::accepted(std::string_view key_hash, CallerPtr caller, Clock::time_point now) {
  Loop* loop = here();
  if (!loop) return;
  if (auto found = loop->by_key.find(key_hash); found != loop->by_key.end()) {
    found->second = {std::move(caller), now};
    return;
  }
  if (loop->by_key.size() >= kMaxPerLoop) loop->by_key.clear();
  loop->by_key.emplace(std::string(key_hash), Acceptance{std::move(caller), now});
}

CallerPtr CallerRecords::recent(std::string_view key_hash, Clock::time_point now,
                                Clock::duration max_age) {
  Loop* loop = here();
  if (!loop) return nullptr;
  auto found = loop->by_key.find(key_hash);
  if (found == loop->by_key.end() || now - found->second.at > max_age) return nullptr;
  return found->second.caller;
}

}  // namespace feedback::gateway
