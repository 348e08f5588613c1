#pragma once
// The rules of workspaces, plans and API keys. Knows nothing of gRPC or SQL: requests and
// answers are the protobuf messages, storage is a TokensStore, the cache a KeyCache.

#include <string>

#include "feedback/tokens/v1/tokens.pb.h"
#include "services/tokens/tokens_store.h"

namespace feedback::tokens {

struct TokensSettings {
  // Workspace hosts are "<subdomain>.<public_host_suffix>".
  std::string public_host_suffix;
};

class TokensService {
 public:
  TokensService(TokensSettings settings, KeyCache& cache);

  v1::CreateWorkspaceResponse createWorkspace(TokensStore& store,
                                              const v1::CreateWorkspaceRequest& request);
  v1::SetWorkspacePlanResponse setWorkspacePlan(TokensStore& store,
                                                const v1::SetWorkspacePlanRequest& request);
  // NOT_FOUND for an unknown workspace.
  v1::CreateWorkspaceKeyResponse createWorkspaceKey(TokensStore& store,
                                                    const v1::CreateWorkspaceKeyRequest& request);
  v1::VerifyKeyResponse verifyKey(TokensStore& store, const v1::VerifyKeyRequest& request);
  v1::ResolveHostResponse resolveHost(TokensStore& store, const v1::ResolveHostRequest& request);
  v1::CreateTokenResponse createToken(TokensStore& store, const v1::CreateTokenRequest& request);
  v1::ListTokensResponse listTokens(TokensStore& store, const v1::ListTokensRequest& request);
  v1::RevokeTokenResponse revokeToken(TokensStore& store, const v1::RevokeTokenRequest& request);

  feedback::common::v1::Workspace describe(const WorkspaceRecord& workspace) const;

 private:
  TokensSettings settings_;
  KeyCache& cache_;
};

// "sk_live_" followed by 40 base62 characters (docs/api.md "Authentication and scopes").
std::string generateApiKey();
// The subdomain derived from a workspace name: lowercase letters, digits and single hyphens.
std::string subdomainFromName(const std::string& name);

}  // namespace feedback::tokens
