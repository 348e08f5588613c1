#pragma once
// The sends a dispatcher has in flight, per webhook: claims leave room for every webhook, so
// that a receiver that is slow or never answers holds at most its own few slots and never
// delays the others (no head-of-line blocking).

#include <map>
#include <mutex>
#include <string>

#include "services/webhooks/pg_dispatch_store.h"

namespace feedback::webhooks {

class InFlight {
 public:
  void add(const std::string& webhook_uuid) {
    std::lock_guard lock(mutex_);
    ++by_webhook_[webhook_uuid];
    ++total_;
  }
  void remove(const std::string& webhook_uuid) {
    std::lock_guard lock(mutex_);
    auto it = by_webhook_.find(webhook_uuid);
    if (it == by_webhook_.end()) return;
    if (--it->second == 0) by_webhook_.erase(it);
    --total_;
  }
  int total() const {
    std::lock_guard lock(mutex_);
    return total_;
  }
  Busy busy() const {
    std::lock_guard lock(mutex_);
    Busy out;
    for (const auto& [uuid, n] : by_webhook_) {
      out.webhook_uuids.push_back(uuid);
      out.sending.push_back(n);
    }
    return out;
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, int> by_webhook_;
  int total_ = 0;
};

}  // namespace feedback::webhooks
