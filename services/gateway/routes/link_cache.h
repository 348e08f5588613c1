#pragma once
// Rendered link documents (the JSON of GET /v1/links/{uuid}/) kept in the gateway, each with
// the version of the link it shows. An entry is served only when that version equals the one
// in Redis (common/link_versions.h), read in the request's single Redis round trip; so a
// change acknowledged by the links service is never hidden by a cached copy, on any replica.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace feedback::gateway {

class LinkCache {
 public:
  LinkCache(std::size_t max_entries, std::size_t max_bytes)
      : max_entries_(max_entries), max_bytes_(max_bytes) {}

  // The document when it is cached for this workspace at exactly `version`.
  std::shared_ptr<const std::string> find(const std::string& link_uuid,
                                          const std::string& workspace_uuid, int64_t version);
  void store(const std::string& link_uuid, const std::string& workspace_uuid, int64_t version,
             std::shared_ptr<const std::string> body);

  std::size_t entries() const;
  std::size_t bytes() const;

 private:
  struct Entry {
    std::string workspace_uuid;
    int64_t version = 0;
    std::shared_ptr<const std::string> body;
  };
  void evictUntilFits(std::size_t incoming);

  const std::size_t max_entries_;
  const std::size_t max_bytes_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  std::deque<std::string> insertion_order_;  // eviction: oldest first
  std::size_t bytes_ = 0;
};

}  // namespace feedback::gateway
