#include "common/api/export_files.h"

#include <array>
#include <ctime>

namespace feedback::api {
namespace {

constexpr std::array<ExportFileType, 3> kFileTypes = {{
    {"csv", "text/csv; charset=utf-8", "csv"},
    {"ndjson", "application/x-ndjson", "ndjson"},
    {"xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx"},
}};

}  // namespace

const ExportFileType* findExportFileType(std::string_view format) {
  for (const auto& type : kFileTypes) {
    if (type.format == format) return &type;
  }
  return nullptr;
}

std::string exportFileName(std::string_view slug, const ExportFileType& type,
                           int64_t unix_seconds) {
  const std::time_t at = static_cast<std::time_t>(unix_seconds);
  std::tm utc{};
  gmtime_r(&at, &utc);
  char day[16];
  std::strftime(day, sizeof day, "%Y-%m-%d", &utc);
  std::string out(slug);
  out += "-responses-";
  out += day;
  out += '.';
  out += type.extension;
  return out;
}

}  // namespace feedback::api
