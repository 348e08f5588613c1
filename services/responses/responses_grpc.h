#pragma once

#include "common/core/counters.h"
#include "common/grpc/arena_messages.h"
#include "common/pg/pg_pool.h"
#include "feedback/responses/v1/responses.grpc.pb.h"
#include "services/responses/responses_service.h"

namespace feedback::responses {

// Thin adapter. A new response is judged on gRPC's thread (the rules only compute) and
// answered when `writer` has stored it, so that no thread waits for the commit; every other
// RPC runs ResponsesService on the worker pool with a PgResponsesStore.
class ResponsesGrpc final : public v1::ResponsesService::CallbackService {
 public:
  ResponsesGrpc(ResponsesService& service, ResponseWriter& writer, PgPool& pool, Counters& counters)
      : service_(service), writer_(writer), pool_(pool), counters_(counters) {
    SetMessageAllocatorFor_CreateCompletedResponses(&completed_messages_);
  }

  grpc::ServerUnaryReactor* StartResponse(grpc::CallbackServerContext* context,
                                          const v1::StartResponseRequest* request,
                                          v1::StartResponseResponse* response) override;
  grpc::ServerUnaryReactor* SaveAnswer(grpc::CallbackServerContext* context,
                                       const v1::SaveAnswerRequest* request,
                                       v1::SaveAnswerResponse* response) override;
  grpc::ServerUnaryReactor* AnswerFollowUp(grpc::CallbackServerContext* context,
                                           const v1::AnswerFollowUpRequest* request,
                                           v1::AnswerFollowUpResponse* response) override;
  grpc::ServerUnaryReactor* SubmitResponse(grpc::CallbackServerContext* context,
                                           const v1::SubmitResponseRequest* request,
                                           v1::SubmitResponseResponse* response) override;
  grpc::ServerUnaryReactor* CreateCompletedResponses(
      grpc::CallbackServerContext* context, const v1::CreateCompletedResponsesRequest* request,
      v1::CreateCompletedResponsesResponse* response) override;
  grpc::ServerUnaryReactor* ListResponses(grpc::CallbackServerContext* context,
                                          const v1::ListResponsesRequest* request,
                                          v1::ListResponsesResponse* response) override;
  grpc::ServerUnaryReactor* GetResponse(grpc::CallbackServerContext* context,
                                        const v1::GetResponseRequest* request,
                                        v1::GetResponseResponse* response) override;
  grpc::ServerUnaryReactor* CountResponses(grpc::CallbackServerContext* context,
                                           const v1::CountResponsesRequest* request,
                                           v1::CountResponsesResponse* response) override;
  grpc::ServerUnaryReactor* GetLinkSummary(grpc::CallbackServerContext* context,
                                           const v1::GetLinkSummaryRequest* request,
                                           v1::GetLinkSummaryResponse* response) override;

 private:
  ResponsesService& service_;
  ResponseWriter& writer_;
  PgPool& pool_;
  Counters& counters_;
  // The one-shot submits' batches: the gateway's hot path into this service.
  grpckit::ArenaMessages<v1::CreateCompletedResponsesRequest, v1::CreateCompletedResponsesResponse>
      completed_messages_;
};

}  // namespace feedback::responses
