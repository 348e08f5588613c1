#pragma once
// XLSX exports, written with libxlsxwriter in its constant-memory mode: each row goes to a
// temporary file as it is added, the archive is made at the end and read back in chunks.

#include <memory>
#include <string>
#include <vector>

#include "services/responses/export/export_formats.h"

namespace feedback::responses {

// Whether a file can be made in `directory` (checked at start-up).
bool writableDirectory(const std::string& directory);

std::unique_ptr<ExportFormat> makeXlsxFormat(std::vector<questions::Question> questions,
                                             const ExportOptions& options);

}  // namespace feedback::responses
