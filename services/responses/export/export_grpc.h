#pragma once
// The gRPC adapter of exports (feedback.responses.v1.ExportService): each export runs on a
// worker of a pool of its own (EXPORT_CONCURRENCY connections), so that long exports never hold
// up the API's reads; its chunks are written one at a time, the next read only once the last
// is sent (gRPC's flow control carries the client's pace back to the cursor).

#include "common/core/counters.h"
#include "common/pg/pg_pool.h"
#include "feedback/responses/v1/export.grpc.pb.h"
#include "services/responses/export/response_export.h"

namespace feedback::responses {

class ExportGrpc final : public v1::ExportService::CallbackService {
 public:
  ExportGrpc(const ResponseExport& rules, PgPool& pool, Counters& counters)
      : rules_(rules), pool_(pool), counters_(counters) {}

  grpc::ServerWriteReactor<v1::ExportResponsesResponse>* ExportResponses(
      grpc::CallbackServerContext* context, const v1::ExportResponsesRequest* request) override;

 private:
  const ResponseExport& rules_;
  PgPool& pool_;
  Counters& counters_;
};

}  // namespace feedback::responses
