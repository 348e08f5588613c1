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
  // The file's end, at most about `limit` bytes at a time: true while more is to come (call
  // again once `out` is sent). CSV and NDJSON have none; XLSX is made here (a ZIP archive is
  // written once its parts are complete) and read back from its temporary file.
  virtual bool end(std::string& out, std::size_t limit) = 0;
};

struct ExportOptions {
  // Where XLSX keeps its worksheets and the finished file while it is sent.
  std::string temporary_directory = "/tmp";
};

// The writer of `format` (api::findExportFileType's) for a link with `questions` (display order).
std::unique_ptr<ExportFormat> makeExportFormat(std::string_view format,
                                               std::vector<questions::Question> questions,
                                               const ExportOptions& options);

// `text` as one CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break.
void appendCsvField(std::string& out, std::string_view text);

}  // namespace feedback::responses
