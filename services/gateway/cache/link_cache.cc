#include "services/gateway/cache/link_cache.h"

namespace feedback::gateway {

std::shared_ptr<const LinkDocument> LinkCache::find(const std::string& link_uuid,
                                                    const std::string& workspace_uuid,
                                                    int64_t version) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(link_uuid);
  if (it == entries_.end() || it->second.version != version ||
      it->second.workspace_uuid != workspace_uuid) {
    return nullptr;
  }
  return it->second.body;
}

void LinkCache::store(const std::string& link_uuid, const std::string& workspace_uuid,
                      int64_t version, std::shared_ptr<const LinkDocument> body) {
  if (!body || body->bytes > max_bytes_ || max_entries_ == 0) return;
  std::lock_guard lock(mutex_);
  auto it = entries_.find(link_uuid);
  if (it != entries_.end()) {
    // Never replace a newer document with an older one fetched concurrently.
    if (it->second.version > version) return;
    bytes_ -= it->second.body->bytes;
    bytes_ += body->bytes;
    it->second = Entry{workspace_uuid, version, std::move(body)};
    evictUntilFits(0);
    return;
  }
  evictUntilFits(body->bytes);
  bytes_ += body->bytes;
  entries_.emplace(link_uuid, Entry{workspace_uuid, version, std::move(body)});
  insertion_order_.push_back(link_uuid);
}

void LinkCache::evictUntilFits(std::size_t incoming) {
  while (!insertion_order_.empty() &&
         (entries_.size() + (incoming ? 1 : 0) > max_entries_ || bytes_ + incoming > max_bytes_)) {
    auto it = entries_.find(insertion_order_.front());
    insertion_order_.pop_front();
    if (it == entries_.end()) continue;
    bytes_ -= it->second.body->bytes;
    entries_.erase(it);
  }
}

std::size_t LinkCache::entries() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

std::size_t LinkCache::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

}  // namespace feedback::gateway
