#pragma once
// Rendered link documents (the JSON of GET /v1/links/{uuid}/) kept in the gateway, each with
// the version of the link it shows. A document leaves its response_count to be filled in when
// it is served (common/redis/response_counts.h): submissions do not change its version. An entry is
// served only when that version equals the one in Redis (common/link_versions.h), read in the
// request's single Redis round trip; so a change acknowledged by the links service is never hidden
// by a cached copy, on any replica.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "feedback/links/v1/links.pb.h"

namespace feedback::gateway {

struct LinkDocument {
  // The link's JSON with a one-character placeholder for response_count at count_offset.
  std::string json;
  std::size_t count_offset = 0;
  // The link it renders, for the calls that take the link itself (a summary's questions).
  std::shared_ptr<const feedback::links::v1::Link> link = {};
  // What the document holds in memory, as the cache counts it against its bound.
  std::size_t bytes = 0;

  // The document with `count` in place of the placeholder.
  std::string withCount(int64_t count) const {
    std::string out;
    std::string number = std::to_string(count);
    out.reserve(json.size() + number.size());
    out.append(json, 0, count_offset).append(number).append(json, count_offset + 1);
    return out;
  }
};

class LinkCache {
 public:
  LinkCache(std::size_t max_entries, std::size_t max_bytes)
      : max_entries_(max_entries), max_bytes_(max_bytes) {}

  // The document when it is cached for this workspace at exactly `version`.
  std::shared_ptr<const LinkDocument> find(const std::string& link_uuid,
                                           const std::string& workspace_uuid, int64_t version);
  void store(const std::string& link_uuid, const std::string& workspace_uuid, int64_t version,
             std::shared_ptr<const LinkDocument> body);

  std::size_t entries() const;
  std::size_t bytes() const;

 private:
  struct Entry {
    std::string workspace_uuid;
    int64_t version = 0;
    std::shared_ptr<const LinkDocument> body;
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
