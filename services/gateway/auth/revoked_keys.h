#pragma once
// Hashes of keys revoked recently, fed by the revocation channel (common/key_cache.h) and by
// this gateway's own DELETE /v1/tokens/{uuid}/ answers. A request whose key is revoked while
// it is being processed answers 401 instead of its result (SPEC.md: in-flight requests using
// a revoked key fail). New requests are refused by the key cache's tombstone instead.

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace feedback::gateway {

class RevokedKeys {
 public:
  // Longer than any request can take (backend deadline and read timeouts included).
  explicit RevokedKeys(std::chrono::seconds keep = std::chrono::seconds(120)) : keep_(keep) {}

  void add(const std::string& key_hash);
  bool contains(const std::string& key_hash) const;

 private:
  void prune(std::chrono::steady_clock::time_point now);

  const std::chrono::seconds keep_;
  // Lets the usual case (nothing revoked lately) skip the lock on every request.
  std::atomic<bool> any_{false};
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::chrono::steady_clock::time_point> revoked_;
};

}  // namespace feedback::gateway
