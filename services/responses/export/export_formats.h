#pragma once
// The files an export writes (docs/api.md "Exports"): each takes the link's questions, then the
// responses one by one, and appends its bytes to the caller's buffer, which the caller sends
// and empties as it grows, so that memory stays flat whatever the number of responses.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/api/export_files.h"
#include "common/questions/question_types.h"
#include "feedback/responses/v1/responses.pb.h"

namespace feedback::responses {

class ExportFormat {
 public:
  virtual ~ExportFormat() = default;
  // The file's beginning (CSV: byte order mark and header row).
  virtual void begin(std::string& out) = 0;
  // One response, its answers' addresses resolved.
  virtual void add(const feedback::responses::v1::Response& response, std::string& out) = 0;
  // The file's end (nothing for CSV and NDJSON).
  virtual void end(std::string& out) = 0;
};

// The writer of `format` (api::findExportFileType's) for a link with `questions` (display order).
std::unique_ptr<ExportFormat> makeExportFormat(std::string_view format,
                                               std::vector<questions::Question> questions);

// `text` as one CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break.
void appendCsvField(std::string& out, std::string_view text);

}  // namespace feedback::responses
