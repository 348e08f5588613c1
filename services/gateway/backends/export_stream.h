#pragma once
// An export read from the responses service as the client takes it (ExportService): `done` is
// called once, when the first chunk came (with the body's stream, which gives that chunk first
// and asks the service for each next one only once the previous one is written) or when the
// call failed before any. Dropping the stream cancels the call, which stops the service's
// cursor.

#include <functional>
#include <memory>
#include <string>

#include "feedback/responses/v1/export.grpc.pb.h"
#include "services/gateway/pipeline/request_context.h"

namespace feedback::gateway {

using ExportStub = std::shared_ptr<feedback::responses::v1::ExportService::Stub>;
using ExportStreamDone = std::function<void(const grpc::Status&, std::shared_ptr<BodyStream>)>;

void streamExport(const ExportStub& stub, const ContextPtr& ctx,
                  feedback::responses::v1::ExportResponsesRequest request, ExportStreamDone done);

}  // namespace feedback::gateway
