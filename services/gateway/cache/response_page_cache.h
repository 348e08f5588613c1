#pragma once
// Rendered pages of a link's completed responses (the default list of
// GET /v1/links/{uuid}/responses/), kept in the gateway. A dashboard polling its first page,
// or many readers of one campaign, then cost neither a backend call nor a query.
// An entry is served only under the validity it was stored with: the link's `changes` token
// in Redis, which every settled submission replaces, read in the request's one Redis round
// trip with the count it names and nothing pending (common/redis/response_counts.h),
// together with the Redis connection it was read on (a restarted Redis may hold older
// tokens). An entry is served for at most `max_age` after that read, which stays within
// responsecount::kMaxPageAgeSeconds.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "common/redis/redis_client.h"

namespace feedback::gateway {

struct CachedPage {
  int64_t count = 0;         // the list's count
  std::string results_json;  // the rendered array of the page's responses
};

class ResponsePageCache {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  ResponsePageCache(std::size_t max_bytes, std::chrono::seconds max_age,
                    Clock now = std::chrono::steady_clock::now);

  // The page kept under `key` with exactly this validity and younger than max_age.
  std::shared_ptr<const CachedPage> find(const std::string& key, const std::string& validity);
  // Replaces what `key` held; `read_at` is when its validity was read. Pages larger than the
  // whole cache are not kept.
  void store(const std::string& key, const std::string& validity,
             std::chrono::steady_clock::time_point read_at, std::shared_ptr<const CachedPage> page);
  std::chrono::steady_clock::time_point now() const { return now_(); }

  bool enabled() const { return max_bytes_ > 0; }
  std::size_t entries() const;
  std::size_t bytes() const;
  // Entries plus the positions replaced entries left in the eviction order.
  std::size_t positions() const;

 private:
  struct Entry {
    std::string validity;
    std::chrono::steady_clock::time_point read_at;
    std::shared_ptr<const CachedPage> page;
    std::size_t bytes = 0;
    uint64_t serial = 0;  // which position in order_ is this entry's
  };
  void evictUntilFits(std::size_t incoming);
  void erase(std::unordered_map<std::string, Entry>::iterator it);
  bool isCurrent(const std::pair<std::string, uint64_t>& position) const;

  const std::size_t max_bytes_;
  const std::chrono::seconds max_age_;
  const Clock now_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  // Eviction order, oldest store first: (key, serial). A replaced or expired entry leaves its
  // position behind; such positions are skipped, and dropped once they outnumber the entries.
  std::deque<std::pair<std::string, uint64_t>> order_;
  uint64_t next_serial_ = 0;
  std::size_t bytes_ = 0;
};

// The validity under which pages of a link's completed responses may be kept and served now,
// from the parts of the link's Redis read (common/redis/response_counts.h's kReadScript):
// nullopt while a submission is pending, when Redis did not answer, or when the token is
// missing or names another count than the one read.
std::optional<std::string> completedPagesValidity(const std::optional<RedisReply>& count,
                                                  const std::optional<RedisReply>& pending,
                                                  const std::optional<RedisReply>& changes,
                                                  uint64_t redis_epoch);

// The cache key of a list request: each parameter that shapes the answer, absent ones told
// apart from empty or zero ones.
struct PageKeyParts {
  std::string link_uuid;
  std::string ordering;
  std::string search;  // empty: no search
  int page = 1;
  int page_size = 0;
  std::optional<int64_t> since_micros = {};
  std::optional<int64_t> until_micros = {};
};
std::string pageKey(const PageKeyParts& parts);

}  // namespace feedback::gateway
