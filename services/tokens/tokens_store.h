#pragma once
// What the tokens rules need from storage. PgTokensStore implements it with SQL; unit tests
// use an in-memory fake.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace feedback::tokens {

struct WorkspaceRecord {
  std::string uuid;
  std::string name;
  std::string subdomain;
  std::string plan;
  std::optional<int> rate_limit;      // override of the plan's default
  std::optional<int> link_quota;      // override of the plan's default
  std::optional<int> retention_days;  // responses older than this are erased; none: kept
};

struct KeyRecord {
  std::string uuid;
  std::string workspace_uuid;
  std::string name;
  std::string prefix;
  std::string key_hash;
  std::vector<std::string> scopes;
  int64_t date_created_micros = 0;
  int64_t last_used_at_micros = 0;  // 0: never used
};

class TokensStore {
 public:
  virtual ~TokensStore() = default;
  // False when the subdomain is already taken (nothing is written then).
  virtual bool insertWorkspace(const WorkspaceRecord& workspace, KeyRecord& first_key) = 0;
  virtual std::optional<WorkspaceRecord> findWorkspace(const std::string& uuid) = 0;
  virtual std::optional<WorkspaceRecord> findWorkspaceBySubdomain(const std::string& subdomain) = 0;
  // The plan and both overrides of `ws`.
  virtual void updatePlan(const WorkspaceRecord& ws) = 0;
  virtual std::vector<std::string> liveKeyHashes(const std::string& workspace_uuid) = 0;
  // The live key with this hash and its workspace; records the use.
  virtual std::optional<std::pair<KeyRecord, WorkspaceRecord>> useKey(
      const std::string& key_hash) = 0;
  // Fills date_created_micros.
  virtual void insertKey(KeyRecord& key) = 0;
  virtual int64_t countLiveKeys(const std::string& workspace_uuid) = 0;
  virtual std::vector<KeyRecord> listLiveKeys(const std::string& workspace_uuid, int64_t offset,
                                              int limit) = 0;
  // Marks the key revoked and calls `before_commit` with its hash while the change is still
  // uncommitted; an exception from it undoes the revocation. False when no such live key.
  virtual bool revokeKey(const std::string& workspace_uuid, const std::string& key_uuid,
                         const std::function<void(const std::string&)>& before_commit) = 0;
};

// The shared key cache (see common/key_cache.h). Failures throw ApiError.
class KeyCache {
 public:
  virtual ~KeyCache() = default;
  virtual void markRevoked(const std::string& key_hash) = 0;
  virtual void forget(const std::vector<std::string>& key_hashes) = 0;
};

}  // namespace feedback::tokens
