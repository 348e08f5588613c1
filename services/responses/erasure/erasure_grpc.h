#pragma once
// The gRPC adapter of erasures (feedback.responses.v1.ErasureService). A deletion (one
// response, a few milliseconds) runs on the API's pool; a respondent's erasure, which may take a
// minute, on a pool of its own (ERASURE_CONCURRENCY connections), so that it never holds up the
// API's other calls, deletions included.

#include "common/core/counters.h"
#include "common/pg/pg_pool.h"
#include "feedback/responses/v1/erasure.grpc.pb.h"
#include "services/responses/erasure/response_erasure.h"

namespace feedback::responses {

class ErasureGrpc final : public v1::ErasureService::CallbackService {
 public:
  ErasureGrpc(ResponseErasure& rules, PgPool& pool, PgPool& erasure_pool, Counters& counters)
      : rules_(rules), pool_(pool), erasure_pool_(erasure_pool), counters_(counters) {}

  grpc::ServerUnaryReactor* DeleteResponse(grpc::CallbackServerContext* context,
                                           const v1::DeleteResponseRequest* request,
                                           v1::DeleteResponseResponse* response) override;
  grpc::ServerUnaryReactor* EraseRespondent(grpc::CallbackServerContext* context,
                                            const v1::EraseRespondentRequest* request,
                                            v1::EraseRespondentResponse* response) override;

 private:
  ResponseErasure& rules_;
  PgPool& pool_;
  PgPool& erasure_pool_;
  Counters& counters_;
};

}  // namespace feedback::responses
