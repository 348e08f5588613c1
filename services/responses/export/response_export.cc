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

void ResponseExport::write(ResponsesStore& store, const ExportPlan& plan, const Send& send,
                           const std::function<bool()>& client_left) const {
  auto format = makeExportFormat(plan.file->format, plan.questions, options_);
  std::string chunk;
  format->begin(chunk);
  auto last_sent = std::chrono::steady_clock::now();
  // Hands over the buffer in chunks of at most kChunkBytes (a response may be larger than a
  // gRPC message may be); with `all`, the rest too.
  auto flush = [&](bool all) {
    std::size_t at = 0;
    while (chunk.size() - at >= kChunkBytes || (all && at < chunk.size())) {
      std::string piece = chunk.substr(at, std::min(kChunkBytes, chunk.size() - at));
      at += piece.size();
      if (!send(piece)) return false;
    }
    chunk.erase(0, at);
    last_sent = std::chrono::steady_clock::now();
    return true;
  };
  bool gone = false;
  store.forEachResponse(
      plan.filter, plan.order, kBatchRows, [&](ResponsesStore::ResponseBatch& responses) {
        if (client_left()) {
          gone = true;
          return false;
        }
        // Addresses signed as each batch is written: they last an hour from then.
        const int64_t now = api::unixSeconds();
        for (auto& response : responses) {
          if (media_) {
            response.set_answers_json(media_->resolve(std::move(*response.mutable_answers_json()),
                                                      plan.host, plan.filter.workspace_uuid, now));
          }
          format->add(response, chunk);
          if (chunk.size() >= kChunkBytes && !flush(false)) {
            gone = true;
            return false;
          }
        }
        const bool quiet = std::chrono::steady_clock::now() - last_sent >= kMaxQuiet;
        if (quiet && !chunk.empty() && !flush(true)) {
          gone = true;
          return false;
        }
        return true;
      });
  if (gone || client_left()) return;
  while (format->end(chunk, kChunkBytes)) {
    if (!flush(false)) return;
  }
  flush(true);
}

}  // namespace feedback::responses
