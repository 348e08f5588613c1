#include "services/responses/responses_grpc.h"

#include "common/service/pool_reactor.h"
#include "services/responses/pg_responses_store.h"

namespace feedback::responses {

grpc::ServerUnaryReactor* ResponsesGrpc::StartResponse(grpc::CallbackServerContext* c,
                                                       const v1::StartResponseRequest* q,
                                                       v1::StartResponseResponse* r) {
  return service::callOnPool<PgResponsesStore>(c, pool_, counters_, "StartResponse", service_,
                                               &ResponsesService::startResponse, q, r);
}

grpc::ServerUnaryReactor* ResponsesGrpc::SaveAnswer(grpc::CallbackServerContext* c,
                                                    const v1::SaveAnswerRequest* q,
                                                    v1::SaveAnswerResponse* r) {
  return service::callOnPool<PgResponsesStore>(c, pool_, counters_, "SaveAnswer", service_,
                                               &ResponsesService::saveAnswer, q, r);
}

grpc::ServerUnaryReactor* ResponsesGrpc::SubmitResponse(grpc::CallbackServerContext* c,
                                                        const v1::SubmitResponseRequest* q,
                                                        v1::SubmitResponseResponse* r) {
  return service::callOnPool<PgResponsesStore>(c, pool_, counters_, "SubmitResponse", service_,
                                               &ResponsesService::submitResponse, q, r);
}

grpc::ServerUnaryReactor* ResponsesGrpc::CreateCompletedResponse(
    grpc::CallbackServerContext* c, const v1::CreateCompletedResponseRequest* q,
    v1::CreateCompletedResponseResponse* r) {
  return service::callOnPool<PgResponsesStore>(c, pool_, counters_, "CreateCompletedResponse",
                                               service_, &ResponsesService::createCompletedResponse,
                                               q, r);
}

grpc::ServerUnaryReactor* ResponsesGrpc::ListResponses(grpc::CallbackServerContext* c,
                                                       const v1::ListResponsesRequest* q,
                                                       v1::ListResponsesResponse* r) {
  return service::callOnPool<PgResponsesStore>(c, pool_, counters_, "ListResponses", service_,
                                               &ResponsesService::listResponses, q, r);
}

grpc::ServerUnaryReactor* ResponsesGrpc::GetResponse(grpc::CallbackServerContext* c,
                                                     const v1::GetResponseRequest* q,
                                                     v1::GetResponseResponse* r) {
  return service::callOnPool<PgResponsesStore>(c, pool_, counters_, "GetResponse", service_,
                                               &ResponsesService::getResponse, q, r);
}

grpc::ServerUnaryReactor* ResponsesGrpc::CountResponses(grpc::CallbackServerContext* c,
                                                        const v1::CountResponsesRequest* q,
                                                        v1::CountResponsesResponse* r) {
  return service::callOnPool<PgResponsesStore>(c, pool_, counters_, "CountResponses", service_,
                                               &ResponsesService::countResponses, q, r);
}

}  // namespace feedback::responses
