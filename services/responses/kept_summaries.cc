#include "services/responses/kept_summaries.h"

namespace feedback::responses {

std::optional<v1::GetLinkSummaryResponse> KeptSummaries::find(const std::string& key,
                                                              const std::string& validity) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.validity != validity) return std::nullopt;
  return it->second.summary;
}

void KeptSummaries::keep(const std::string& key, const std::string& validity,
                         const v1::GetLinkSummaryResponse& summary) {
  if (capacity_ == 0) return;
  std::lock_guard lock(mutex_);
  if (auto it = entries_.find(key); it != entries_.end()) {
    order_.erase(it->second.position);
    entries_.erase(it);
  }
  while (entries_.size() >= capacity_) {
    entries_.erase(order_.front());
    order_.pop_front();
  }
  order_.push_back(key);
  entries_.emplace(key, Entry{validity, summary, std::prev(order_.end())});
}

std::size_t KeptSummaries::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace feedback::responses
