#include "services/tokens/tokens_grpc.h"

#include "common/service/pool_reactor.h"
#include "services/tokens/pg_tokens_store.h"

namespace feedback::tokens {

grpc::ServerUnaryReactor* TokensGrpc::CreateWorkspace(grpc::CallbackServerContext* c,
                                                      const v1::CreateWorkspaceRequest* q,
                                                      v1::CreateWorkspaceResponse* r) {
  return service::callOnPool<PgTokensStore>(c, pool_, counters_, "CreateWorkspace", service_,
                                            &TokensService::createWorkspace, q, r);
}
grpc::ServerUnaryReactor* TokensGrpc::SetWorkspacePlan(grpc::CallbackServerContext* c,
                                                       const v1::SetWorkspacePlanRequest* q,
                                                       v1::SetWorkspacePlanResponse* r) {
  return service::callOnPool<PgTokensStore>(c, pool_, counters_, "SetWorkspacePlan", service_,
                                            &TokensService::setWorkspacePlan, q, r);
}
grpc::ServerUnaryReactor* TokensGrpc::CreateWorkspaceKey(grpc::CallbackServerContext* c,
                                                         const v1::CreateWorkspaceKeyRequest* q,
                                                         v1::CreateWorkspaceKeyResponse* r) {
  return service::callOnPool<PgTokensStore>(c, pool_, counters_, "CreateWorkspaceKey", service_,
                                            &TokensService::createWorkspaceKey, q, r);
}
grpc::ServerUnaryReactor* TokensGrpc::VerifyKey(grpc::CallbackServerContext* c,
                                                const v1::VerifyKeyRequest* q,
                                                v1::VerifyKeyResponse* r) {
  return service::callOnPool<PgTokensStore>(c, pool_, counters_, "VerifyKey", service_,
                                            &TokensService::verifyKey, q, r);
}
grpc::ServerUnaryReactor* TokensGrpc::ResolveHost(grpc::CallbackServerContext* c,
                                                  const v1::ResolveHostRequest* q,
                                                  v1::ResolveHostResponse* r) {
  return service::callOnPool<PgTokensStore>(c, pool_, counters_, "ResolveHost", service_,
                                            &TokensService::resolveHost, q, r);
}
grpc::ServerUnaryReactor* TokensGrpc::CreateToken(grpc::CallbackServerContext* c,
                                                  const v1::CreateTokenRequest* q,
                                                  v1::CreateTokenResponse* r) {
  return service::callOnPool<PgTokensStore>(c, pool_, counters_, "CreateToken", service_,
                                            &TokensService::createToken, q, r);
}
grpc::ServerUnaryReactor* TokensGrpc::ListTokens(grpc::CallbackServerContext* c,
                                                 const v1::ListTokensRequest* q,
                                                 v1::ListTokensResponse* r) {
  return service::callOnPool<PgTokensStore>(c, pool_, counters_, "ListTokens", service_,
                                            &TokensService::listTokens, q, r);
}
grpc::ServerUnaryReactor* TokensGrpc::RevokeToken(grpc::CallbackServerContext* c,
                                                  const v1::RevokeTokenRequest* q,
                                                  v1::RevokeTokenResponse* r) {
  return service::callOnPool<PgTokensStore>(c, pool_, counters_, "RevokeToken", service_,
                                            &TokensService::revokeToken, q, r);
}

}  // namespace feedback::tokens
