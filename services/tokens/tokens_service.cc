#include "services/tokens/tokens_service.h"

#include <algorithm>

#include "common/core/ascii.h"
#include "common/core/crypto.h"
#include "common/core/errors.h"
#include "common/core/ids.h"
#include "common/core/log.h"
#include "common/core/names.h"
#include "common/core/pagination.h"
#include "common/core/plans.h"
#include "common/core/scopes.h"
#include "common/core/text.h"

namespace feedback::tokens {
namespace {

constexpr std::size_t kMaxNameLength = 200;
constexpr std::size_t kKeyRandomLength = 40;
constexpr std::size_t kKeyPrefixLength = 12;
constexpr int kSubdomainAttempts = 5;
// Leaves room for the suffix a taken subdomain gets.
constexpr std::size_t kMaxSubdomainFromName = 40;

// NAME_REQUIRED when absent or blank; VALIDATION_ERROR when too long.
std::string requireName(const std::optional<std::string>& name) {
  std::string value = name ? std::string(trim(*name)) : std::string();
  if (value.empty()) throw ApiError(ErrorCode::kNameRequired, "A name is required.");
  requireStorableText(value, "name");
  if (value.size() > kMaxNameLength) {
    throw ApiError(ErrorCode::kValidationError, "The name is too long.",
                   {{"name", "at most 200 characters"}});
  }
  return value;
}

KeyRecord newKey(const std::string& workspace_uuid, std::string name,
                 std::vector<std::string> scopes, std::string& full_key) {
  full_key = generateApiKey();
  KeyRecord key;
  key.uuid = newUuid();
  key.workspace_uuid = workspace_uuid;
  key.name = std::move(name);
  key.prefix = full_key.substr(0, kKeyPrefixLength);
  key.key_hash = crypto::sha256Hex(full_key);
  key.scopes = std::move(scopes);
  return key;
}

void toProto(const KeyRecord& key, v1::Token& out) {
  out.set_uuid(key.uuid);
  out.set_name(key.name);
  out.set_prefix(key.prefix);
  for (const auto& s : key.scopes) out.add_scopes(s);
  out.set_date_created_micros(key.date_created_micros);
  out.set_last_used_at_micros(key.last_used_at_micros);
}

std::vector<std::string> allScopes() {
  return {scopes::kAll.begin(), scopes::kAll.end()};
}

// The requested scopes in canonical order; INVALID_SCOPE for unknown ones or ones the
// calling key does not hold (no escalation).
std::vector<std::string> grantedScopes(const v1::CreateTokenRequest& request) {
  const auto& held = request.caller().scopes();
  if (!request.has_scopes()) return {held.begin(), held.end()};
  ErrorDetails problems;
  for (int i = 0; i < request.scopes_size(); ++i) {
    const std::string& s = request.scopes(i);
    std::string path = "scopes[" + std::to_string(i) + "]";
    if (!scopes::isKnown(s)) {
      problems[path] = "unknown scope '" + s + "'";
    } else if (!scopes::holds(held, s)) {
      problems[path] = "the calling key does not hold '" + s + "'";
    }
  }
  if (!problems.empty()) {
    throw ApiError(ErrorCode::kInvalidScope, "A key can only grant scopes it holds itself.",
                   std::move(problems));
  }
  if (request.scopes_size() == 0) {
    throw ApiError(ErrorCode::kInvalidScope, "At least one scope is required.",
                   {{"scopes", "must not be empty"}});
  }
  std::vector<std::string> out;
  for (auto s : scopes::kAll) {
    if (scopes::holds(request.scopes(), s)) out.emplace_back(s);
  }
  return out;
}

}  // namespace

std::string generateApiKey() {
  return "sk_live_" + crypto::randomBase62(kKeyRandomLength);
}

std::string subdomainFromName(const std::string& name) {
  std::string out = nameToSlug(name, '-', kMaxSubdomainFromName);
  return out.empty() ? "workspace" : out;
}

namespace {

// Rate and quota overrides, as workspace creation and plan changes take them.
template <typename Request>
void applyOverrides(const Request& request, WorkspaceRecord& ws) {
  if (request.has_rate_limit()) {
    if (request.rate_limit() < 1) {
      throw ApiError(ErrorCode::kValidationError, "Invalid rate limit.",
                     {{"rate_limit", "must be at least 1"}});
    }
    ws.rate_limit = request.rate_limit();
  }
  if (request.has_link_quota()) {
    if (request.link_quota() < 0) {
      throw ApiError(ErrorCode::kValidationError, "Invalid link quota.",
                     {{"link_quota", "must be at least 0"}});
    }
    ws.link_quota = request.link_quota();
  }
  if (request.has_retention_days()) {
    if (request.retention_days() < 1 || request.retention_days() > plans::kMaxRetentionDays) {
      throw ApiError(ErrorCode::kValidationError, "Invalid retention.",
                     {{"retention_days",
                       "must be 1 to " + std::to_string(plans::kMaxRetentionDays) + " days"}});
    }
    ws.retention_days = request.retention_days();
  }
}

}  // namespace

TokensService::TokensService(TokensSettings settings, KeyCache& cache)
    : settings_(std::move(settings)), cache_(cache) {}

feedback::common::v1::Workspace TokensService::describe(const WorkspaceRecord& ws) const {
  const plans::Plan* plan = plans::find(ws.plan);
  feedback::common::v1::Workspace out;
  out.set_uuid(ws.uuid);
  out.set_name(ws.name);
  out.set_subdomain(ws.subdomain);
  out.set_host(ws.subdomain + "." + settings_.public_host_suffix);
  out.set_plan(ws.plan);
  out.set_rate_limit(ws.rate_limit.value_or(plan ? plan->requests_per_minute : 0));
  out.set_link_quota(ws.link_quota.value_or(plan ? plan->link_quota : 0));
  out.set_retention_days(ws.retention_days.value_or(0));
  return out;
}

v1::CreateWorkspaceResponse TokensService::createWorkspace(
    TokensStore& store, const v1::CreateWorkspaceRequest& request) {
  WorkspaceRecord ws;
  ws.uuid = newUuid();
  ws.name = requireName(request.name());
  ws.plan = request.plan().empty() ? "free" : request.plan();
  if (!plans::find(ws.plan)) {
    throw ApiError(ErrorCode::kValidationError, "Unknown plan.",
                   {{"plan", "one of free, pro, enterprise"}});
  }
  applyOverrides(request, ws);
  bool given = !request.subdomain().empty();
  if (given && !isValidSubdomain(request.subdomain())) {
    throw ApiError(ErrorCode::kValidationError, "Invalid subdomain.",
                   {{"subdomain", "lowercase letters, digits and inner hyphens, at most 63"}});
  }
  std::string base = given ? request.subdomain() : subdomainFromName(ws.name);

  std::string full_key;
  KeyRecord key = newKey(ws.uuid, "Default key", allScopes(), full_key);
  for (int attempt = 0;; ++attempt) {
    ws.subdomain = attempt == 0 ? base : base + "-" + crypto::toHex(crypto::randomBytes(3));
    if (store.insertWorkspace(ws, key)) break;
    if (given) {
      throw ApiError(ErrorCode::kValidationError, "The subdomain is taken.",
                     {{"subdomain", "already taken"}});
    }
    if (attempt + 1 >= kSubdomainAttempts) {
      throw ApiError(ErrorCode::kInternalError, "Could not find a free subdomain.");
    }
  }
  log::info("workspace_created", {{"workspace_uuid", ws.uuid}, {"plan", ws.plan}});
  v1::CreateWorkspaceResponse response;
  *response.mutable_workspace() = describe(ws);
  response.set_api_key(full_key);
  return response;
}

v1::SetWorkspacePlanResponse TokensService::setWorkspacePlan(
    TokensStore& store, const v1::SetWorkspacePlanRequest& request) {
  if (!plans::find(request.plan())) {
    throw ApiError(ErrorCode::kValidationError, "Unknown plan.",
                   {{"plan", "one of free, pro, enterprise"}});
  }
  if (!isUuid(request.workspace_uuid())) throw ApiError(ErrorCode::kNotFound);
  auto ws = store.findWorkspace(request.workspace_uuid());
  if (!ws) throw ApiError(ErrorCode::kNotFound, "No such workspace.");
  ws->plan = request.plan();
  if (request.plan_rate_limit()) ws->rate_limit.reset();
  if (request.plan_link_quota()) ws->link_quota.reset();
  if (request.no_retention()) {
    if (request.has_retention_days()) {
      throw ApiError(ErrorCode::kValidationError, "Give a retention or none, not both.",
                     {{"retention_days", "not with no_retention"}});
    }
    ws->retention_days.reset();
  }
  applyOverrides(request, *ws);
  store.updatePlan(*ws);
  // Cached key records carry the old plan's limits.
  cache_.forget(store.liveKeyHashes(ws->uuid));
  v1::SetWorkspacePlanResponse response;
  *response.mutable_workspace() = describe(*ws);
  return response;
}

v1::CreateWorkspaceKeyResponse TokensService::createWorkspaceKey(
    TokensStore& store, const v1::CreateWorkspaceKeyRequest& request) {
  if (!isUuid(request.workspace_uuid())) throw ApiError(ErrorCode::kNotFound);
  if (!store.findWorkspace(request.workspace_uuid())) {
    throw ApiError(ErrorCode::kNotFound, "No such workspace.");
  }
  std::string full_key;
  KeyRecord key = newKey(request.workspace_uuid(),
                         requireName(request.name().empty() ? "Admin key" : request.name()),
                         allScopes(), full_key);
  store.insertKey(key);
  log::info("workspace_key_created",
            {{"workspace_uuid", key.workspace_uuid}, {"key_prefix", key.prefix}});
  v1::CreateWorkspaceKeyResponse response;
  toProto(key, *response.mutable_token());
  response.set_key(full_key);
  return response;
}

v1::VerifyKeyResponse TokensService::verifyKey(TokensStore& store,
                                               const v1::VerifyKeyRequest& request) {
  const std::string& hash = request.key_hash();
  bool well_formed = hash.size() == 64 && std::all_of(hash.begin(), hash.end(), [](char c) {
                       return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
                     });
  auto found = well_formed ? store.useKey(hash) : std::nullopt;
  if (!found) throw ApiError(ErrorCode::kInvalidApiKey);
  v1::VerifyKeyResponse response;
  auto* caller = response.mutable_caller();
  *caller->mutable_workspace() = describe(found->second);
  caller->set_token_uuid(found->first.uuid);
  caller->set_token_prefix(found->first.prefix);
  for (const auto& s : found->first.scopes) caller->add_scopes(s);
  return response;
}

v1::ResolveHostResponse TokensService::resolveHost(TokensStore& store,
                                                   const v1::ResolveHostRequest& request) {
  std::string subdomain = subdomainOfHost(request.host(), settings_.public_host_suffix);
  auto ws = isValidSubdomain(subdomain) ? store.findWorkspaceBySubdomain(subdomain) : std::nullopt;
  if (!ws) throw ApiError(ErrorCode::kNotFound, "No workspace has this host.");
  v1::ResolveHostResponse response;
  *response.mutable_workspace() = describe(*ws);
  return response;
}

v1::CreateTokenResponse TokensService::createToken(TokensStore& store,
                                                   const v1::CreateTokenRequest& request) {
  std::string name = requireName(request.has_name() ? std::optional(request.name()) : std::nullopt);
  std::string full_key;
  KeyRecord key = newKey(request.caller().workspace().uuid(), std::move(name),
                         grantedScopes(request), full_key);
  store.insertKey(key);
  v1::CreateTokenResponse response;
  toProto(key, *response.mutable_token());
  response.set_key(full_key);
  return response;
}

v1::ListTokensResponse TokensService::listTokens(TokensStore& store,
                                                 const v1::ListTokensRequest& request) {
  Page page = normalizePage(request.page());
  const std::string& ws = request.caller().workspace().uuid();
  v1::ListTokensResponse response;
  response.set_count(store.countLiveKeys(ws));
  requirePageExists(page, response.count());
  for (const auto& key : store.listLiveKeys(ws, page.offset(), page.size)) {
    toProto(key, *response.add_tokens());
  }
  return response;
}

v1::RevokeTokenResponse TokensService::revokeToken(TokensStore& store,
                                                   const v1::RevokeTokenRequest& request) {
  if (!isUuid(request.token_uuid())) throw ApiError(ErrorCode::kNotFound);
  v1::RevokeTokenResponse response;
  bool revoked = store.revokeKey(request.caller().workspace().uuid(), request.token_uuid(),
                                 [this, &response](const std::string& hash) {
                                   cache_.markRevoked(hash);
                                   response.set_key_hash(hash);
                                 });
  if (!revoked) throw ApiError(ErrorCode::kNotFound, "No such token.");
  log::info("token_revoked", {{"token_uuid", request.token_uuid()}});
  return response;
}

}  // namespace feedback::tokens
