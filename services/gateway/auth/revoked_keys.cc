#include "services/gateway/auth/revoked_keys.h"

namespace feedback::gateway {

void RevokedKeys::add(const std::string& key_hash) {
  auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mutex_);
  prune(now);
  revoked_[key_hash] = now;
  any_ = true;
}

bool RevokedKeys::contains(const std::string& key_hash) const {
  if (!any_) return false;
  std::lock_guard lock(mutex_);
  return revoked_.count(key_hash) > 0;
}

void RevokedKeys::prune(std::chrono::steady_clock::time_point now) {
  for (auto it = revoked_.begin(); it != revoked_.end();) {
    it = now - it->second > keep_ ? revoked_.erase(it) : std::next(it);
  }
  any_ = !revoked_.empty();
}

}  // namespace feedback::gateway
