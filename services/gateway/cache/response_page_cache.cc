#include "services/gateway/cache/response_page_cache.h"

namespace feedback::gateway {

namespace {

// What an entry costs beyond its page: key, validity, bookkeeping.
constexpr std::size_t kEntryOverhead = 256;

}  // namespace

ResponsePageCache::ResponsePageCache(std::size_t max_bytes, std::chrono::seconds max_age, Clock now)
    : max_bytes_(max_bytes), max_age_(max_age), now_(std::move(now)) {}

std::shared_ptr<const CachedPage> ResponsePageCache::find(const std::string& key,
                                                          const std::string& validity) {
  if (!enabled()) return nullptr;
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.validity != validity) return nullptr;
  if (now_() - it->second.read_at >= max_age_) {
    erase(it);
    return nullptr;
  }
  return it->second.page;
}

void ResponsePageCache::store(const std::string& key, const std::string& validity,
                              std::chrono::steady_clock::time_point read_at,
                              std::shared_ptr<const CachedPage> page) {
  if (!page || !enabled() || now_() - read_at >= max_age_) return;
  const std::size_t size =
      key.size() + validity.size() + page->results_json.size() + kEntryOverhead;
  if (size > max_bytes_) return;
  std::lock_guard lock(mutex_);
  if (auto it = entries_.find(key); it != entries_.end()) erase(it);
  evictUntilFits(size);
  const uint64_t serial = next_serial_++;
  entries_.emplace(key, Entry{validity, read_at, std::move(page), size, serial});
  order_.emplace_back(key, serial);
  bytes_ += size;
  if (order_.size() > 2 * entries_.size() + 64) {
    std::erase_if(order_, [this](const auto& position) { return !isCurrent(position); });
  }
}

bool ResponsePageCache::isCurrent(const std::pair<std::string, uint64_t>& position) const {
  auto it = entries_.find(position.first);
  return it != entries_.end() && it->second.serial == position.second;
}

void ResponsePageCache::erase(std::unordered_map<std::string, Entry>::iterator it) {
  bytes_ -= it->second.bytes;
  entries_.erase(it);
}

void ResponsePageCache::evictUntilFits(std::size_t incoming) {
  while (!order_.empty() && bytes_ + incoming > max_bytes_) {
    if (isCurrent(order_.front())) erase(entries_.find(order_.front().first));
    order_.pop_front();
  }
}

std::size_t ResponsePageCache::entries() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

std::size_t ResponsePageCache::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

std::size_t ResponsePageCache::positions() const {
  std::lock_guard lock(mutex_);
  return order_.size();
}

std::optional<std::string> completedPagesValidity(const std::optional<RedisReply>& count,
                                                  const std::optional<RedisReply>& pending,
                                                  const std::optional<RedisReply>& changes,
                                                  uint64_t redis_epoch) {
  if (redis_epoch == 0) return std::nullopt;  // not known
  if (!pending || pending->type != RedisReply::Type::kInteger || pending->integer != 0) {
    return std::nullopt;
  }
  if (!count || count->type != RedisReply::Type::kString || count->str.empty()) {
    return std::nullopt;
  }
  if (!changes || changes->type != RedisReply::Type::kString ||
      changes->str.size() <= count->str.size() + 1 ||
      changes->str.compare(0, count->str.size(), count->str) != 0 ||
      changes->str[count->str.size()] != ':') {
    return std::nullopt;
  }
  return changes->str + "@" + std::to_string(redis_epoch);
}

std::string pageKey(const PageKeyParts& parts) {
  std::string key;
  auto add = [&key](const std::optional<std::string>& part) {
    if (!part) {
      key += '-';
      return;
    }
    key += std::to_string(part->size());
    key += ':';
    key += *part;
  };
  auto number = [](const std::optional<int64_t>& n) -> std::optional<std::string> {
    if (!n) return std::nullopt;
    return std::to_string(*n);
  };
  add(parts.link_uuid);
  add(parts.ordering);
  add(parts.search);
  add(std::to_string(parts.page));
  add(std::to_string(parts.page_size));
  add(number(parts.since_micros));
  add(number(parts.until_micros));
  return key;
}

}  // namespace feedback::gateway
