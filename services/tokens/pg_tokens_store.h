#pragma once

#include <pqxx/connection>

#include "services/tokens/tokens_store.h"

namespace feedback::tokens {

// TokensStore on PostgreSQL (schema `tokens`), through prepared statements.
class PgTokensStore final : public TokensStore {
 public:
  explicit PgTokensStore(pqxx::connection& connection) : connection_(connection) {}
  // Prepares every statement on a new connection; PgPool calls it once per connection.
  static void prepare(pqxx::connection& connection);

  bool insertWorkspace(const WorkspaceRecord& workspace, KeyRecord& first_key) override;
  std::optional<WorkspaceRecord> findWorkspace(const std::string& uuid) override;
  std::optional<WorkspaceRecord> findWorkspaceBySubdomain(const std::string& subdomain) override;
  void updatePlan(const WorkspaceRecord& ws) override;
  std::vector<std::string> liveKeyHashes(const std::string& workspace_uuid) override;
  std::optional<std::pair<KeyRecord, WorkspaceRecord>> useKey(const std::string& key_hash) override;
  void insertKey(KeyRecord& key) override;
  int64_t countLiveKeys(const std::string& workspace_uuid) override;
  std::vector<KeyRecord> listLiveKeys(const std::string& workspace_uuid, int64_t offset,
                                      int limit) override;
  bool revokeKey(const std::string& workspace_uuid, const std::string& key_uuid,
                 const std::function<void(const std::string&)>& before_commit) override;

 private:
  pqxx::connection& connection_;
};

}  // namespace feedback::tokens
