#pragma once
// The rules of an export (docs/api.md "Exports"): which responses, in which order, as which
// file; the file is written in chunks as the responses are read, each handed over before the
// next is read, so that memory stays flat whatever the number of responses. Knows nothing of
// gRPC or SQL.

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "common/api/media_urls.h"
#include "common/questions/question_types.h"
#include "feedback/responses/v1/export.pb.h"
#include "services/responses/export/export_formats.h"
#include "services/responses/responses_store.h"

namespace feedback::responses {

// An export the rules accepted.
struct ExportPlan {
  ResponseFilter filter;
  Ordering order = Ordering::kSubmittedDesc;
  const api::ExportFileType* file = nullptr;
  std::vector<questions::Question> questions;
  std::string host;
};

class ResponseExport {
 public:
  // Rows read from the store at a time, and the size of the chunks handed over.
  static constexpr int kBatchRows = 500;
  static constexpr std::size_t kChunkBytes = 64 * 1024;

  // `media` signs the addresses of files and recordings (none: they keep their markers).
  explicit ResponseExport(const api::MediaUrls* media, ExportOptions options = {})
      : media_(media), options_(std::move(options)) {}

  // VALIDATION_ERROR for an unknown format, status or search; INVALID_ORDERING.
  ExportPlan plan(const v1::ExportResponsesRequest& request) const;

  // A chunk goes at least this often while rows come (a sparse search may match few): the
  // gateway gives up on a body whose next piece takes longer than its write timeout.
  static constexpr std::chrono::seconds kMaxQuiet{5};

  // Writes the file, handing each chunk (at most kChunkBytes) to `send` (which may take its
  // bytes); stops reading when `send` returns false or, between batches, when `client_left`
  // says so (an XLSX sends nothing until its archive is made). The first chunk goes once the
  // first rows are read, so that a store that fails at once fails the call rather than cutting
  // a file.
  using Send = std::function<bool(std::string& chunk)>;
  void write(
      ResponsesStore& store, const ExportPlan& plan, const Send& send,
      const std::function<bool()>& client_left = [] { return false; }) const;

 private:
  const api::MediaUrls* media_;
  ExportOptions options_;
};

}  // namespace feedback::responses
