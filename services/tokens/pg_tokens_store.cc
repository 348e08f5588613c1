#include "services/tokens/pg_tokens_store.h"

#include <pqxx/pqxx>

#include "common/pg/sql_text.h"

namespace feedback::tokens {
namespace {

constexpr const char* kInsertWorkspace = "tokens_insert_workspace";
constexpr const char* kInsertWorkspaceSql =
    "INSERT INTO tokens.workspaces (uuid, name, subdomain, plan, rate_limit, link_quota,"
    " retention_days) "
    "VALUES ($1, $2, $3, $4, NULLIF($5, '')::integer, NULLIF($6, '')::integer,"
    " NULLIF($7, '')::integer) "
    "ON CONFLICT (subdomain) DO NOTHING";

constexpr const char* kInsertKey = "tokens_insert_key";
constexpr const char* kInsertKeySql =
    "INSERT INTO tokens.api_keys (uuid, workspace_uuid, name, prefix, key_hash, scopes) "
    "VALUES ($1, $2, $3, $4, $5, string_to_array($6, ',')) "
    "RETURNING " MICROS("date_created");

constexpr const char* kSelectWorkspace = "tokens_select_workspace";
constexpr const char* kSelectWorkspaceSql =
    "SELECT uuid, name, subdomain, plan, rate_limit, link_quota, retention_days "
    "FROM tokens.workspaces WHERE uuid = $1";

constexpr const char* kSelectWorkspaceBySubdomain = "tokens_select_workspace_by_subdomain";
constexpr const char* kSelectWorkspaceBySubdomainSql =
    "SELECT uuid, name, subdomain, plan, rate_limit, link_quota, retention_days "
    "FROM tokens.workspaces WHERE subdomain = $1";

constexpr const char* kUpdatePlan = "tokens_update_plan";
constexpr const char* kUpdatePlanSql =
    "UPDATE tokens.workspaces SET plan = $2, rate_limit = NULLIF($3, '')::integer, "
    "link_quota = NULLIF($4, '')::integer, retention_days = NULLIF($5, '')::integer "
    "WHERE uuid = $1";

constexpr const char* kLiveKeyHashes = "tokens_live_key_hashes";
constexpr const char* kLiveKeyHashesSql =
    "SELECT key_hash FROM tokens.api_keys WHERE workspace_uuid = $1 AND revoked_at IS NULL";

// Columns 0-6 are the key, 7-12 its workspace.
constexpr const char* kUseKey = "tokens_use_key";
constexpr const char* kUseKeySql =
    "UPDATE tokens.api_keys k SET last_used_at = clock_timestamp() FROM tokens.workspaces w "
    "WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND w.uuid = k.workspace_uuid "
    "RETURNING k.uuid, k.workspace_uuid, k.name, k.prefix, array_to_string(k.scopes, ','), "
    MICROS("k.date_created") ", " MICROS("k.last_used_at") ", "
    "w.uuid, w.name, w.subdomain, w.plan, w.rate_limit, w.link_quota, w.retention_days";

constexpr const char* kCountLiveKeys = "tokens_count_live_keys";
constexpr const char* kCountLiveKeysSql =
    "SELECT count(*) FROM tokens.api_keys WHERE workspace_uuid = $1 AND revoked_at IS NULL";

constexpr const char* kListLiveKeys = "tokens_list_live_keys";
constexpr const char* kListLiveKeysSql =
    "SELECT uuid, workspace_uuid, name, prefix, array_to_string(scopes, ','), "
    MICROS("date_created") ", " MICROS("last_used_at") " "
    "FROM tokens.api_keys WHERE workspace_uuid = $1 AND revoked_at IS NULL "
    "ORDER BY date_created DESC, uuid LIMIT $2 OFFSET $3";

constexpr const char* kRevokeKey = "tokens_revoke_key";
constexpr const char* kRevokeKeySql =
    "UPDATE tokens.api_keys SET revoked_at = clock_timestamp() "
    "WHERE workspace_uuid = $1 AND uuid = $2 AND revoked_at IS NULL RETURNING key_hash";

std::vector<std::string> splitScopes(const std::string& joined) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < joined.size()) {
    auto comma = joined.find(',', start);
    if (comma == std::string::npos) comma = joined.size();
    out.push_back(joined.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

std::string joinScopes(const std::vector<std::string>& scopes) {
  std::string out;
  for (const auto& s : scopes) {
    if (!out.empty()) out += ',';
    out += s;
  }
  return out;
}

std::string optionalText(const std::optional<int>& value) {
  return value ? std::to_string(*value) : std::string();
}

std::optional<int> optionalInt(const pqxx::field& f) {
  if (f.is_null()) return std::nullopt;
  return f.as<int>();
}

KeyRecord keyFrom(const pqxx::row& row) {
  KeyRecord key;
  key.uuid = row[0].as<std::string>();
  key.workspace_uuid = row[1].as<std::string>();
  key.name = row[2].as<std::string>();
  key.prefix = row[3].as<std::string>();
  key.scopes = splitScopes(row[4].as<std::string>());
  key.date_created_micros = row[5].as<int64_t>();
  key.last_used_at_micros = row[6].is_null() ? 0 : row[6].as<int64_t>();
  return key;
}

WorkspaceRecord workspaceFrom(const pqxx::row& row, int first) {
  WorkspaceRecord ws;
  ws.uuid = row[first].as<std::string>();
  ws.name = row[first + 1].as<std::string>();
  ws.subdomain = row[first + 2].as<std::string>();
  ws.plan = row[first + 3].as<std::string>();
  ws.rate_limit = optionalInt(row[first + 4]);
  ws.link_quota = optionalInt(row[first + 5]);
  ws.retention_days = optionalInt(row[first + 6]);
  return ws;
}

}  // namespace

void PgTokensStore::prepare(pqxx::connection& c) {
  c.prepare(kInsertWorkspace, kInsertWorkspaceSql);
  c.prepare(kInsertKey, kInsertKeySql);
  c.prepare(kSelectWorkspace, kSelectWorkspaceSql);
  c.prepare(kSelectWorkspaceBySubdomain, kSelectWorkspaceBySubdomainSql);
  c.prepare(kUpdatePlan, kUpdatePlanSql);
  c.prepare(kLiveKeyHashes, kLiveKeyHashesSql);
  c.prepare(kUseKey, kUseKeySql);
  c.prepare(kCountLiveKeys, kCountLiveKeysSql);
  c.prepare(kListLiveKeys, kListLiveKeysSql);
  c.prepare(kRevokeKey, kRevokeKeySql);
}

bool PgTokensStore::insertWorkspace(const WorkspaceRecord& ws, KeyRecord& key) {
  pqxx::work tx(connection_);
  auto inserted = tx.exec_prepared(kInsertWorkspace, ws.uuid, ws.name, ws.subdomain, ws.plan,
                                   optionalText(ws.rate_limit), optionalText(ws.link_quota),
                                   optionalText(ws.retention_days));
  if (inserted.affected_rows() == 0) return false;
  auto row = tx.exec_prepared1(kInsertKey, key.uuid, key.workspace_uuid, key.name, key.prefix,
                               key.key_hash, joinScopes(key.scopes));
  key.date_created_micros = row[0].as<int64_t>();
  tx.commit();
  return true;
}

std::optional<WorkspaceRecord> PgTokensStore::findWorkspace(const std::string& uuid) {
  pqxx::read_transaction tx(connection_);
  auto result = tx.exec_prepared(kSelectWorkspace, uuid);
  if (result.empty()) return std::nullopt;
  return workspaceFrom(result[0], 0);
}

std::optional<WorkspaceRecord> PgTokensStore::findWorkspaceBySubdomain(
    const std::string& subdomain) {
  pqxx::read_transaction tx(connection_);
  auto result = tx.exec_prepared(kSelectWorkspaceBySubdomain, subdomain);
  if (result.empty()) return std::nullopt;
  return workspaceFrom(result[0], 0);
}

void PgTokensStore::updatePlan(const WorkspaceRecord& ws) {
  pqxx::work tx(connection_);
  tx.exec_prepared(kUpdatePlan, ws.uuid, ws.plan, optionalText(ws.rate_limit),
                   optionalText(ws.link_quota), optionalText(ws.retention_days));
  tx.commit();
}

std::vector<std::string> PgTokensStore::liveKeyHashes(const std::string& workspace_uuid) {
  pqxx::read_transaction tx(connection_);
  std::vector<std::string> out;
  for (const auto& row : tx.exec_prepared(kLiveKeyHashes, workspace_uuid)) {
    out.push_back(row[0].as<std::string>());
  }
  return out;
}

std::optional<std::pair<KeyRecord, WorkspaceRecord>> PgTokensStore::useKey(
    const std::string& key_hash) {
  pqxx::work tx(connection_);
  auto result = tx.exec_prepared(kUseKey, key_hash);
  if (result.empty()) return std::nullopt;
  tx.commit();
  return std::make_pair(keyFrom(result[0]), workspaceFrom(result[0], 7));
}

void PgTokensStore::insertKey(KeyRecord& key) {
  pqxx::work tx(connection_);
  auto row = tx.exec_prepared1(kInsertKey, key.uuid, key.workspace_uuid, key.name, key.prefix,
                               key.key_hash, joinScopes(key.scopes));
  key.date_created_micros = row[0].as<int64_t>();
  tx.commit();
}

int64_t PgTokensStore::countLiveKeys(const std::string& workspace_uuid) {
  pqxx::read_transaction tx(connection_);
  return tx.exec_prepared1(kCountLiveKeys, workspace_uuid)[0].as<int64_t>();
}

std::vector<KeyRecord> PgTokensStore::listLiveKeys(const std::string& workspace_uuid,
                                                   int64_t offset, int limit) {
  pqxx::read_transaction tx(connection_);
  std::vector<KeyRecord> out;
  for (const auto& row : tx.exec_prepared(kListLiveKeys, workspace_uuid, limit, offset)) {
    out.push_back(keyFrom(row));
  }
  return out;
}

bool PgTokensStore::revokeKey(const std::string& workspace_uuid, const std::string& key_uuid,
                              const std::function<void(const std::string&)>& before_commit) {
  pqxx::work tx(connection_);
  auto result = tx.exec_prepared(kRevokeKey, workspace_uuid, key_uuid);
  if (result.empty()) return false;
  before_commit(result[0][0].as<std::string>());
  tx.commit();
  return true;
}

}  // namespace feedback::tokens
