#pragma once
// Summaries kept by this process for callers that allow it (a shared report's page): a link's
// summary is read again only once the link's questions or its responses changed, which the
// responses' count and version (ResponsesStore::Count, link_counts) and the link's version
// say. At a million responses a summary takes a second; a kept one, a read of link_counts.
// Bounded in number; the oldest kept goes first.

#include <cstddef>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "feedback/responses/v1/responses.pb.h"

namespace feedback::responses {

class KeptSummaries {
 public:
  explicit KeptSummaries(std::size_t capacity = 256) : capacity_(capacity) {}

  // The summary kept under `key` with exactly this validity.
  std::optional<v1::GetLinkSummaryResponse> find(const std::string& key,
                                                 const std::string& validity) const;
  void keep(const std::string& key, const std::string& validity,
            const v1::GetLinkSummaryResponse& summary);
  std::size_t size() const;

 private:
  struct Entry {
    std::string validity;
    v1::GetLinkSummaryResponse summary;
    std::list<std::string>::iterator position;
  };
  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  std::list<std::string> order_;  // oldest kept first
};

}  // namespace feedback::responses
