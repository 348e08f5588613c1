#pragma once

#include "common/core/counters.h"
#include "common/pg/pg_pool.h"
#include "feedback/tokens/v1/tokens.grpc.pb.h"
#include "services/tokens/tokens_service.h"

namespace feedback::tokens {

// Thin adapter: every RPC runs TokensService on the worker pool with a PgTokensStore.
class TokensGrpc final : public v1::TokensService::CallbackService {
 public:
  TokensGrpc(TokensService& service, PgPool& pool, Counters& counters)
      : service_(service), pool_(pool), counters_(counters) {}

  grpc::ServerUnaryReactor* CreateWorkspace(grpc::CallbackServerContext* context,
                                            const v1::CreateWorkspaceRequest* request,
                                            v1::CreateWorkspaceResponse* response) override;
  grpc::ServerUnaryReactor* SetWorkspacePlan(grpc::CallbackServerContext* context,
                                             const v1::SetWorkspacePlanRequest* request,
                                             v1::SetWorkspacePlanResponse* response) override;
  grpc::ServerUnaryReactor* CreateWorkspaceKey(grpc::CallbackServerContext* context,
                                               const v1::CreateWorkspaceKeyRequest* request,
                                               v1::CreateWorkspaceKeyResponse* response) override;
  grpc::ServerUnaryReactor* VerifyKey(grpc::CallbackServerContext* context,
                                      const v1::VerifyKeyRequest* request,
                                      v1::VerifyKeyResponse* response) override;
  grpc::ServerUnaryReactor* ResolveHost(grpc::CallbackServerContext* context,
                                        const v1::ResolveHostRequest* request,
                                        v1::ResolveHostResponse* response) override;
  grpc::ServerUnaryReactor* CreateToken(grpc::CallbackServerContext* context,
                                        const v1::CreateTokenRequest* request,
                                        v1::CreateTokenResponse* response) override;
  grpc::ServerUnaryReactor* ListTokens(grpc::CallbackServerContext* context,
                                       const v1::ListTokensRequest* request,
                                       v1::ListTokensResponse* response) override;
  grpc::ServerUnaryReactor* RevokeToken(grpc::CallbackServerContext* context,
                                        const v1::RevokeTokenRequest* request,
                                        v1::RevokeTokenResponse* response) override;

 private:
  TokensService& service_;
  PgPool& pool_;
  Counters& counters_;
};

}  // namespace feedback::tokens
