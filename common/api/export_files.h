#pragma once
// The files an export may be (docs/api.md "Exports"): the gateway names them in its answer's
// headers, the responses service writes them.

#include <cstdint>
#include <string>
#include <string_view>

namespace feedback::api {

struct ExportFileType {
  std::string_view format;  // the query's value
  std::string_view content_type;
  std::string_view extension;
};

// The formats the API offers; nullptr for any other.
const ExportFileType* findExportFileType(std::string_view format);
// What every unknown format is told.
inline constexpr std::string_view kExportFormats = "csv, ndjson or xlsx";

// "<slug>-responses-<YYYY-MM-DD>.<extension>", the day `unix_seconds` falls on in UTC.
std::string exportFileName(std::string_view slug, const ExportFileType& type, int64_t unix_seconds);

}  // namespace feedback::api
