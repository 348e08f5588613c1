#include "services/tokens/tokens_service.h"

#include <catch2/catch.hpp>
#include <map>
#include <regex>

#include "common/core/crypto.h"
#include "common/core/errors.h"
#include "common/core/names.h"
#include "common/core/scopes.h"

using feedback::ApiError;
using feedback::ErrorCode;
namespace tokens = feedback::tokens;
namespace v1 = feedback::tokens::v1;

namespace {

class FakeStore final : public tokens::TokensStore {
 public:
  std::map<std::string, tokens::WorkspaceRecord> workspaces;
  std::map<std::string, tokens::KeyRecord> keys;  // by uuid
  std::set<std::string> revoked;                  // key uuids

  bool insertWorkspace(const tokens::WorkspaceRecord& ws, tokens::KeyRecord& key) override {
    for (const auto& [_, w] : workspaces) {
      if (w.subdomain == ws.subdomain) return false;
    }
    workspaces[ws.uuid] = ws;
    insertKey(key);
    return true;
  }
  std::optional<tokens::WorkspaceRecord> findWorkspace(const std::string& uuid) override {
    auto it = workspaces.find(uuid);
    if (it == workspaces.end()) return std::nullopt;
    return it->second;
  }
  std::optional<tokens::WorkspaceRecord> findWorkspaceBySubdomain(
      const std::string& subdomain) override {
    for (const auto& [_, w] : workspaces) {
      if (w.subdomain == subdomain) return w;
    }
    return std::nullopt;
  }
  void updatePlan(const tokens::WorkspaceRecord& ws) override { workspaces[ws.uuid] = ws; }
  std::vector<std::string> liveKeyHashes(const std::string& ws) override {
    std::vector<std::string> out;
    for (const auto& [uuid, k] : keys) {
      if (k.workspace_uuid == ws && !revoked.count(uuid)) out.push_back(k.key_hash);
    }
    return out;
  }
  std::optional<std::pair<tokens::KeyRecord, tokens::WorkspaceRecord>> useKey(
      const std::string& hash) override {
    for (const auto& [uuid, k] : keys) {
      if (k.key_hash == hash && !revoked.count(uuid)) {
        return std::make_pair(k, workspaces[k.workspace_uuid]);
      }
    }
    return std::nullopt;
  }
  void insertKey(tokens::KeyRecord& key) override {
    key.date_created_micros = 1700000000000000 + static_cast<int64_t>(keys.size());
    keys[key.uuid] = key;
  }
  int64_t countLiveKeys(const std::string& ws) override {
    return static_cast<int64_t>(liveKeyHashes(ws).size());
  }
  std::vector<tokens::KeyRecord> listLiveKeys(const std::string& ws, int64_t offset,
                                              int limit) override {
    std::vector<tokens::KeyRecord> all;
    for (const auto& [uuid, k] : keys) {
      if (k.workspace_uuid == ws && !revoked.count(uuid)) all.push_back(k);
    }
    std::vector<tokens::KeyRecord> page;
    for (int64_t i = offset; i < static_cast<int64_t>(all.size()) && i < offset + limit; ++i) {
      page.push_back(all[static_cast<std::size_t>(i)]);
    }
    return page;
  }
  bool revokeKey(const std::string& ws, const std::string& uuid,
                 const std::function<void(const std::string&)>& before_commit) override {
    auto it = keys.find(uuid);
    if (it == keys.end() || it->second.workspace_uuid != ws || revoked.count(uuid)) return false;
    before_commit(it->second.key_hash);  // throws: nothing is revoked
    revoked.insert(uuid);
    return true;
  }
};

class FakeCache final : public tokens::KeyCache {
 public:
  std::vector<std::string> revoked, forgotten;
  bool down = false;
  void markRevoked(const std::string& hash) override {
    if (down) throw ApiError(ErrorCode::kServiceUnavailable);
    revoked.push_back(hash);
  }
  void forget(const std::vector<std::string>& hashes) override {
    forgotten.insert(forgotten.end(), hashes.begin(), hashes.end());
  }
};

struct Fixture {
  FakeStore store;
  FakeCache cache;
  tokens::TokensService service{tokens::TokensSettings{"feedback.test"}, cache};

  v1::CreateWorkspaceResponse workspace(const std::string& plan = "free") {
    v1::CreateWorkspaceRequest request;
    request.set_name("Acme Corp");
    request.set_plan(plan);
    return service.createWorkspace(store, request);
  }

  feedback::common::v1::Caller callerFor(const std::string& key) {
    v1::VerifyKeyRequest request;
    request.set_key_hash(feedback::crypto::sha256Hex(key));
    return service.verifyKey(store, request).caller();
  }
};

ErrorCode codeOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const ApiError& e) {
    return e.code();
  }
  FAIL("no ApiError thrown");
  return ErrorCode::kInternalError;
}

}  // namespace

TEST_CASE("tokens: a new workspace gets a host, plan limits and a key with every scope",
          "[tokens]") {
  Fixture f;
  auto created = f.workspace("pro");
  CHECK(created.workspace().subdomain() == "acme-corp");
  CHECK(created.workspace().host() == "acme-corp.feedback.test");
  CHECK(created.workspace().rate_limit() == 120);
  CHECK(created.workspace().link_quota() == 100);
  CHECK(std::regex_match(created.api_key(), std::regex("sk_live_[A-Za-z0-9]{40}")));
  auto caller = f.callerFor(created.api_key());
  CHECK(caller.scopes_size() == static_cast<int>(feedback::scopes::kAll.size()));
  // A second workspace of the same name gets another subdomain.
  CHECK(f.workspace().workspace().subdomain() != "acme-corp");
}

TEST_CASE("tokens: keys are stored only as their SHA-256", "[tokens]") {
  Fixture f;
  std::string key = f.workspace().api_key();
  REQUIRE(f.store.keys.size() == 1);
  const auto& stored = f.store.keys.begin()->second;
  CHECK(stored.key_hash == feedback::crypto::sha256Hex(key));
  CHECK(stored.prefix == key.substr(0, 12));
  CHECK(stored.key_hash.find(key.substr(12)) == std::string::npos);
}

TEST_CASE("tokens: plan overrides and validation", "[tokens]") {
  Fixture f;
  v1::CreateWorkspaceRequest request;
  request.set_name("Big");
  request.set_plan("enterprise");
  request.set_rate_limit(100000);
  request.set_link_quota(3);
  auto ws = f.service.createWorkspace(f.store, request).workspace();
  CHECK(ws.rate_limit() == 100000);
  CHECK(ws.link_quota() == 3);
  request.set_plan("gold");
  CHECK(codeOf([&] { f.service.createWorkspace(f.store, request); }) ==
        ErrorCode::kValidationError);
  request.set_plan("free");
  request.set_name("  ");
  CHECK(codeOf([&] { f.service.createWorkspace(f.store, request); }) == ErrorCode::kNameRequired);
}

TEST_CASE("tokens: unknown, malformed and revoked keys are INVALID_API_KEY", "[tokens]") {
  Fixture f;
  v1::VerifyKeyRequest request;
  request.set_key_hash(feedback::crypto::sha256Hex("sk_live_unknown"));
  CHECK(codeOf([&] { f.service.verifyKey(f.store, request); }) == ErrorCode::kInvalidApiKey);
  request.set_key_hash("not-hex");
  CHECK(codeOf([&] { f.service.verifyKey(f.store, request); }) == ErrorCode::kInvalidApiKey);
}

TEST_CASE("tokens: a new token gets the caller's scopes unless it asks for fewer", "[tokens]") {
  Fixture f;
  auto caller = f.callerFor(f.workspace().api_key());
  v1::CreateTokenRequest request;
  *request.mutable_caller() = caller;
  request.set_name("CI");
  auto all = f.service.createToken(f.store, request);
  CHECK(all.token().scopes_size() == caller.scopes_size());

  request.set_has_scopes(true);
  request.add_scopes("tokens:read");
  request.add_scopes("links:read");
  request.add_scopes("links:read");
  auto some = f.service.createToken(f.store, request);
  REQUIRE(some.token().scopes_size() == 2);
  CHECK(some.token().scopes(0) == "links:read");  // canonical order, duplicates dropped
  CHECK(some.token().scopes(1) == "tokens:read");
  CHECK(some.key().substr(0, 12) == some.token().prefix());
}

TEST_CASE("tokens: no escalation, no unknown scopes, no empty scope list", "[tokens]") {
  Fixture f;
  auto admin = f.callerFor(f.workspace().api_key());
  v1::CreateTokenRequest narrow;
  *narrow.mutable_caller() = admin;
  narrow.set_name("narrow");
  narrow.set_has_scopes(true);
  narrow.add_scopes("tokens:write");
  narrow.add_scopes("links:read");
  auto limited = f.callerFor(f.service.createToken(f.store, narrow).key());

  v1::CreateTokenRequest escalate;
  *escalate.mutable_caller() = limited;
  escalate.set_name("escalate");
  escalate.set_has_scopes(true);
  escalate.add_scopes("links:write");
  try {
    f.service.createToken(f.store, escalate);
    FAIL("escalation accepted");
  } catch (const ApiError& e) {
    CHECK(e.code() == ErrorCode::kInvalidScope);
    CHECK(e.details().count("scopes[0]") == 1);
  }
  escalate.clear_scopes();
  escalate.add_scopes("admin:everything");
  CHECK(codeOf([&] { f.service.createToken(f.store, escalate); }) == ErrorCode::kInvalidScope);
  escalate.clear_scopes();
  CHECK(codeOf([&] { f.service.createToken(f.store, escalate); }) == ErrorCode::kInvalidScope);
}

TEST_CASE("tokens: a name is required and bounded", "[tokens]") {
  Fixture f;
  auto caller = f.callerFor(f.workspace().api_key());
  v1::CreateTokenRequest request;
  *request.mutable_caller() = caller;
  CHECK(codeOf([&] { f.service.createToken(f.store, request); }) == ErrorCode::kNameRequired);
  request.set_name(" \t\n");
  CHECK(codeOf([&] { f.service.createToken(f.store, request); }) == ErrorCode::kNameRequired);
  request.set_name(std::string(201, 'x'));
  CHECK(codeOf([&] { f.service.createToken(f.store, request); }) == ErrorCode::kValidationError);
}

TEST_CASE("tokens: revocation writes the cache tombstone before it commits", "[tokens]") {
  Fixture f;
  auto caller = f.callerFor(f.workspace().api_key());
  v1::CreateTokenRequest create;
  *create.mutable_caller() = caller;
  create.set_name("victim");
  auto victim = f.service.createToken(f.store, create);

  v1::RevokeTokenRequest revoke;
  *revoke.mutable_caller() = caller;
  revoke.set_token_uuid(victim.token().uuid());

  f.cache.down = true;
  CHECK(codeOf([&] { f.service.revokeToken(f.store, revoke); }) == ErrorCode::kServiceUnavailable);
  CHECK(f.store.revoked.empty());

  f.cache.down = false;
  f.service.revokeToken(f.store, revoke);
  REQUIRE(f.cache.revoked.size() == 1);
  CHECK(f.cache.revoked[0] == feedback::crypto::sha256Hex(victim.key()));
  v1::VerifyKeyRequest verify;
  verify.set_key_hash(feedback::crypto::sha256Hex(victim.key()));
  CHECK(codeOf([&] { f.service.verifyKey(f.store, verify); }) == ErrorCode::kInvalidApiKey);
  CHECK(codeOf([&] { f.service.revokeToken(f.store, revoke); }) == ErrorCode::kNotFound);
}

TEST_CASE("tokens: another workspace's token and malformed ids are 404", "[tokens]") {
  Fixture f;
  auto a = f.callerFor(f.workspace().api_key());
  auto b = f.callerFor(f.workspace().api_key());
  v1::CreateTokenRequest create;
  *create.mutable_caller() = a;
  create.set_name("mine");
  auto token = f.service.createToken(f.store, create);
  v1::RevokeTokenRequest revoke;
  *revoke.mutable_caller() = b;
  revoke.set_token_uuid(token.token().uuid());
  CHECK(codeOf([&] { f.service.revokeToken(f.store, revoke); }) == ErrorCode::kNotFound);
  revoke.set_token_uuid("nope");
  CHECK(codeOf([&] { f.service.revokeToken(f.store, revoke); }) == ErrorCode::kNotFound);
}

TEST_CASE("tokens: listing pages and INVALID_PAGE", "[tokens]") {
  Fixture f;
  auto caller = f.callerFor(f.workspace().api_key());
  v1::ListTokensRequest list;
  *list.mutable_caller() = caller;
  list.mutable_page()->set_page_size(1);
  CHECK(f.service.listTokens(f.store, list).count() == 1);
  CHECK(f.service.listTokens(f.store, list).tokens_size() == 1);
  list.mutable_page()->set_page(2);
  CHECK(codeOf([&] { f.service.listTokens(f.store, list); }) == ErrorCode::kInvalidPage);
}

TEST_CASE("tokens: a plan change drops the workspace's cached key records", "[tokens]") {
  Fixture f;
  auto created = f.workspace("free");
  v1::SetWorkspacePlanRequest request;
  request.set_workspace_uuid(created.workspace().uuid());
  request.set_plan("enterprise");
  auto changed = f.service.setWorkspacePlan(f.store, request);
  CHECK(changed.workspace().plan() == "enterprise");
  CHECK(changed.workspace().link_quota() == -1);
  CHECK(f.cache.forgotten ==
        std::vector<std::string>{feedback::crypto::sha256Hex(created.api_key())});
  request.set_plan("platinum");
  CHECK(codeOf([&] { f.service.setWorkspacePlan(f.store, request); }) ==
        ErrorCode::kValidationError);

  // A rate override, kept by a later plan change that does not name it, then cleared.
  request.set_plan("enterprise");
  request.set_rate_limit(5);
  CHECK(f.service.setWorkspacePlan(f.store, request).workspace().rate_limit() == 5);
  request.clear_rate_limit();
  request.set_plan("pro");
  CHECK(f.service.setWorkspacePlan(f.store, request).workspace().rate_limit() == 5);
  request.set_plan_rate_limit(true);
  CHECK(f.service.setWorkspacePlan(f.store, request).workspace().rate_limit() == 120);
  request.set_plan_rate_limit(false);
  request.set_rate_limit(0);
  CHECK(codeOf([&] { f.service.setWorkspacePlan(f.store, request); }) ==
        ErrorCode::kValidationError);
  request.clear_rate_limit();
  request.set_link_quota(2);
  CHECK(f.service.setWorkspacePlan(f.store, request).workspace().link_quota() == 2);
}

TEST_CASE("tokens: subdomains derived from names", "[tokens]") {
  CHECK(tokens::subdomainFromName("Acme Corp.") == "acme-corp");
  CHECK(tokens::subdomainFromName("日本") == "workspace");
  CHECK(feedback::isValidSubdomain(tokens::subdomainFromName("A name -- with *** punctuation -")));
}

TEST_CASE("tokens: a public host resolves to its workspace", "[tokens]") {
  Fixture f;
  auto created = f.workspace("pro");
  auto resolve = [&f](const std::string& host) {
    v1::ResolveHostRequest request;
    request.set_host(host);
    return f.service.resolveHost(f.store, request).workspace();
  };
  CHECK(resolve("acme-corp.feedback.test").uuid() == created.workspace().uuid());
  CHECK(resolve("ACME-Corp.Feedback.Test:8443").uuid() == created.workspace().uuid());
  CHECK(resolve("acme-corp.feedback.test.").host() == "acme-corp.feedback.test");
  for (const char* other : {"nobody.feedback.test", "acme-corp.other.test", "feedback.test",
                            "acme-corp.feedback.test.evil", "x.acme-corp.feedback.test", ""}) {
    INFO(other);
    CHECK(codeOf([&] { resolve(other); }) == ErrorCode::kNotFound);
  }
}

TEST_CASE("tokens: a retention is set, kept by plan changes that do not name it, and cleared",
          "[tokens]") {
  Fixture f;
  auto created = f.workspace("free");
  CHECK(created.workspace().retention_days() == 0);
  v1::SetWorkspacePlanRequest request;
  request.set_workspace_uuid(created.workspace().uuid());
  request.set_plan("pro");
  request.set_retention_days(30);
  CHECK(f.service.setWorkspacePlan(f.store, request).workspace().retention_days() == 30);
  request.clear_retention_days();
  CHECK(f.service.setWorkspacePlan(f.store, request).workspace().retention_days() == 30);
  request.set_retention_days(0);
  CHECK(codeOf([&] { f.service.setWorkspacePlan(f.store, request); }) ==
        ErrorCode::kValidationError);
  request.set_retention_days(36501);  // the cutoff must stay a timestamp
  CHECK(codeOf([&] { f.service.setWorkspacePlan(f.store, request); }) ==
        ErrorCode::kValidationError);
  request.set_retention_days(36500);
  CHECK(f.service.setWorkspacePlan(f.store, request).workspace().retention_days() == 36500);
  request.set_no_retention(true);
  CHECK(codeOf([&] { f.service.setWorkspacePlan(f.store, request); }) ==
        ErrorCode::kValidationError);
  request.clear_retention_days();
  CHECK(f.service.setWorkspacePlan(f.store, request).workspace().retention_days() == 0);
}

TEST_CASE("tokens: a key's caller record names its prefix, which audit lines show", "[tokens]") {
  Fixture f;
  auto created = f.workspace();
  CHECK(f.callerFor(created.api_key()).token_prefix() == created.api_key().substr(0, 12));
}

TEST_CASE("tokens: an admin key for an existing workspace holds every scope", "[tokens]") {
  Fixture f;
  auto created = f.workspace();
  v1::CreateWorkspaceKeyRequest request;
  request.set_workspace_uuid(created.workspace().uuid());
  auto made = f.service.createWorkspaceKey(f.store, request);
  CHECK(made.token().name() == "Admin key");
  CHECK(made.token().scopes_size() == static_cast<int>(feedback::scopes::kAll.size()));
  CHECK(f.callerFor(made.key()).workspace().uuid() == created.workspace().uuid());
  request.set_workspace_uuid("7f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f60");
  CHECK(codeOf([&] { f.service.createWorkspaceKey(f.store, request); }) == ErrorCode::kNotFound);
  request.set_workspace_uuid("not-a-uuid");
  CHECK(codeOf([&] { f.service.createWorkspaceKey(f.store, request); }) == ErrorCode::kNotFound);
}
