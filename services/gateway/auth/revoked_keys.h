#pragma once
// Hashes of keys revoked recently, fed by the revocation channel (common/key_cache.h) and by
// this gateway's own DELETE /v1/tokens/{uuid}/ answers. A request whose key is revoked while
// it is being processed answers 401 instead of its result: in-flight requests using a
// revoked key fail (docs/api.md "Authentication and scopes"). New requests are refused by the
// key cache's tombstone instead.
// Messages published while the subscription is down are lost, so a request that was in
// flight while it was down, or across a reconnection, asks again (FeedMark).

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

namespace feedback::gateway {

// The state of the revocation channel's subscription when a request began.
struct FeedMark {
  uint64_t epoch = 0;  // the subscriber's connection epoch
  bool live = true;    // subscribed and confirmed
};

class RevokedKeys {
 public:
  // `feed`: the subscription's state now; none means every message arrives (tests).
  // `keep`: longer than any request can take (backend deadline and read timeouts included).
  explicit RevokedKeys(std::function<FeedMark()> feed = {},
                       std::chrono::seconds keep = std::chrono::seconds(120))
      : feed_(std::move(feed)), keep_(keep) {}

  void add(const std::string& key_hash);
  bool contains(const std::string& key_hash) const;
  FeedMark mark() const { return feed_ ? feed_() : FeedMark{}; }
  // True when a revocation published since `since` may not have arrived.
  bool mayHaveMissed(const FeedMark& since) const {
    if (!feed_) return false;
    FeedMark now = feed_();
    return !since.live || !now.live || now.epoch != since.epoch;
  }

 private:
  void prune(std::chrono::steady_clock::time_point now);

  const std::function<FeedMark()> feed_;
  const std::chrono::seconds keep_;
  // Lets the usual case (nothing revoked lately) skip the lock on every request.
  std::atomic<bool> any_{false};
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::chrono::steady_clock::time_point> revoked_;
};

}  // namespace feedback::gateway
