#include "services/tokens/tokens_grpc.h"

#include "common/service/pool_reactor.h"
#include "services/tokens/pg_tokens_store.h"

namespace feedback::tokens {

template <class Request, class Response, class Method>
grpc::ServerUnaryReactor* TokensGrpc::run(std::string_view name,
                                          grpc::CallbackServerContext* context,
                                          const Request* request, Response* response,
                                          Method method) {
  return service::onPool(context, pool_, counters_, name,
                         [this, request, response, method](PgSession& session) {
                           PgTokensStore store(session.connection());
                           *response = (service_.*method)(store, *request);
                         });
}

grpc::ServerUnaryReactor* TokensGrpc::CreateWorkspace(grpc::CallbackServerContext* c,
                                                      const v1::CreateWorkspaceRequest* q,
                                                      v1::CreateWorkspaceResponse* r) {
  return run("CreateWorkspace", c, q, r, &TokensService::createWorkspace);
}
grpc::ServerUnaryReactor* TokensGrpc::SetWorkspacePlan(grpc::CallbackServerContext* c,
                                                       const v1::SetWorkspacePlanRequest* q,
                                                       v1::SetWorkspacePlanResponse* r) {
  return run("SetWorkspacePlan", c, q, r, &TokensService::setWorkspacePlan);
}
grpc::ServerUnaryReactor* TokensGrpc::VerifyKey(grpc::CallbackServerContext* c,
                                                const v1::VerifyKeyRequest* q,
                                                v1::VerifyKeyResponse* r) {
  return run("VerifyKey", c, q, r, &TokensService::verifyKey);
}
grpc::ServerUnaryReactor* TokensGrpc::CreateToken(grpc::CallbackServerContext* c,
                                                  const v1::CreateTokenRequest* q,
                                                  v1::CreateTokenResponse* r) {
  return run("CreateToken", c, q, r, &TokensService::createToken);
}
grpc::ServerUnaryReactor* TokensGrpc::ListTokens(grpc::CallbackServerContext* c,
                                                 const v1::ListTokensRequest* q,
                                                 v1::ListTokensResponse* r) {
  return run("ListTokens", c, q, r, &TokensService::listTokens);
}
grpc::ServerUnaryReactor* TokensGrpc::RevokeToken(grpc::CallbackServerContext* c,
                                                  const v1::RevokeTokenRequest* q,
                                                  v1::RevokeTokenResponse* r) {
  return run("RevokeToken", c, q, r, &TokensService::revokeToken);
}

}  // namespace feedback::tokens
