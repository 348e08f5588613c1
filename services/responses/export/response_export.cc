#include "services/responses/export/response_export.h"

#include "common/core/errors.h"
#include "common/core/ids.h"
#include "common/core/text.h"
#include "services/responses/intake_form.h"
#include "services/responses/responses_service.h"

namespace feedback::responses {

ExportPlan ResponseExport::plan(const v1::ExportResponsesRequest& request) const {
  ExportPlan plan;
  plan.file = api::findExportFileType(request.format());
  if (!plan.file) {
    const std::string formats(api::kExportFormats);
    throw ApiError(ErrorCode::kValidationError, "'format' must be " + formats + ".",
                   {{"format", "must be " + formats}});
  }
  if (!isUuid(request.link().uuid())) {
    throw ApiError(ErrorCode::kValidationError, "The export names no link.",
                   {{"link", "must be a link"}});
  }
  plan.filter.workspace_uuid = request.caller().workspace().uuid();
  plan.filter.link_uuid = request.link().uuid();
  plan.filter.status = statusFilter(request.status());
  requireStorableText(request.search(), "search");
  plan.filter.search = request.search();
  if (request.has_since_micros()) plan.filter.since_micros = request.since_micros();
  if (request.has_until_micros()) plan.filter.until_micros = request.until_micros();
  plan.order = ordering(request.ordering());
  plan.questions = questionsOf(request.link());
  plan.host = request.host();
  return plan;
}

void ResponseExport::write(ResponsesStore& store, const ExportPlan& plan, const Send& send) const {
  auto format = makeExportFormat(plan.file->format, plan.questions, options_);
  std::string chunk;
  chunk.reserve(kChunkBytes + kChunkBytes / 4);
  format->begin(chunk);
  const int64_t now = api::unixSeconds();
  bool client_left = false;
  store.forEachResponse(
      plan.filter, plan.order, kBatchRows, [&](ResponsesStore::ResponseBatch& responses) {
        for (auto& response : responses) {
          if (media_) {
            response.set_answers_json(media_->resolve(std::move(*response.mutable_answers_json()),
                                                      plan.host, plan.filter.workspace_uuid, now));
          }
          format->add(response, chunk);
          if (chunk.size() < kChunkBytes) continue;
          if (!send(chunk)) {
            client_left = true;
            return false;
          }
          chunk.clear();
        }
        return true;
      });
  if (client_left) return;
  while (format->end(chunk, kChunkBytes)) {
    if (!send(chunk)) return;
    chunk.clear();
  }
  if (!chunk.empty()) send(chunk);
}

}  // namespace feedback::responses
