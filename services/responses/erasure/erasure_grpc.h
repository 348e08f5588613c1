#pragma once
// The gRPC adapter of erasures (feedback.responses.v1.ErasureService). Both RPCs run on a pool
// of their own (ERASURE_CONCURRENCY connections): a respondent's erasure may take a minute, and
// never holds up the API's other calls.

#include "common/core/counters.h"
#include "common/pg/pg_pool.h"
#include "feedback/responses/v1/erasure.grpc.pb.h"
#include "services/responses/erasure/response_erasure.h"

namespace feedback::responses {

class ErasureGrpc final : public v1::ErasureService::CallbackService {
 public:
  ErasureGrpc(ResponseErasure& rules, PgPool& pool, Counters& counters)
      : rules_(rules), pool_(pool), counters_(counters) {}

  grpc::ServerUnaryReactor* DeleteResponse(grpc::CallbackServerContext* context,
                                           const v1::DeleteResponseRequest* request,
                                           v1::DeleteResponseResponse* response) override;
  grpc::ServerUnaryReactor* EraseRespondent(grpc::CallbackServerContext* context,
                                            const v1::EraseRespondentRequest* request,
                                            v1::EraseRespondentResponse* response) override;

 private:
  ResponseErasure& rules_;
  PgPool& pool_;
  Counters& counters_;
};

}  // namespace feedback::responses
