#include "services/gateway/auth/caller_records.h"

#include "common/redis/key_cache.h"

namespace feedback::gateway {

CallerRecords::CallerRecords(IoThreads* loops) : loops_(loops) {
  if (loops_) by_loop_.resize(loops_->size());
}

CallerPtr CallerRecords::parse(std::string_view record) {
  const std::size_t loop = loops_ ? loops_->current() : IoThreads::kNone;
  Cache* cache = loop == IoThreads::kNone ? nullptr : &by_loop_[loop];
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

}  // namespace feedback::gateway
