#include "services/responses/erasure/erasure_grpc.h"

#include "common/service/pool_reactor.h"
#include "services/responses/erasure/pg_erasure_store.h"

namespace feedback::responses {

grpc::ServerUnaryReactor* ErasureGrpc::DeleteResponse(grpc::CallbackServerContext* c,
                                                      const v1::DeleteResponseRequest* q,
                                                      v1::DeleteResponseResponse* r) {
  return service::callOnPool<PgErasureStore>(c, pool_, counters_, "DeleteResponse", rules_,
                                             &ResponseErasure::deleteResponse, q, r);
}

grpc::ServerUnaryReactor* ErasureGrpc::EraseRespondent(grpc::CallbackServerContext* c,
                                                       const v1::EraseRespondentRequest* q,
                                                       v1::EraseRespondentResponse* r) {
  return service::callOnPool<PgErasureStore>(c, erasure_pool_, counters_, "EraseRespondent", rules_,
                                             &ResponseErasure::eraseRespondent, q, r);
}

}  // namespace feedback::responses
