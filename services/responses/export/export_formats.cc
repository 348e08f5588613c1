#include "services/responses/export/export_formats.h"

#include "common/api/response_json.h"
#include "common/core/json_writer.h"
#include "common/questions/export_cells.h"
#include "services/responses/export/export_rows.h"
#include "services/responses/export/export_xlsx.h"

namespace feedback::responses {
namespace {

namespace rv1 = feedback::responses::v1;
using questions::Cell;
using questions::CellKind;

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

// One record per line, as the list shows it.
class NdjsonFormat final : public ExportFormat {
 public:
  void begin(std::string&) override {}
  void add(const rv1::Response& response, std::string& out) override {
    JsonWriter json(out);
    api::writeResponse(json, response);
    out += '\n';
  }
  bool end(std::string&, std::size_t) override { return false; }
};

// The first character of a formula in a spreadsheet: a cell of free text starting with one is
// written after a quote (CSV injection, OWASP).
bool startsFormula(std::string_view text) {
  if (text.empty()) return false;
  switch (text.front()) {
    case '=':
    case '+':
    case '-':
    case '@':
    case '\t':
    case '\r':
      return true;
    default:
      return false;
  }
}

// RFC 4180, UTF-8 with a byte order mark (what spreadsheets need to read UTF-8), CRLF.
class CsvFormat final : public ExportFormat {
 public:
  explicit CsvFormat(std::vector<questions::Question> questions) : rows_(std::move(questions)) {}

  void begin(std::string& out) override {
    out += kByteOrderMark;
    bool first = true;
    for (const auto& name : rows_.header()) {
      if (!first) out += ',';
      first = false;
      appendCsvField(out, name);
    }
    out += "\r\n";
  }

  void add(const rv1::Response& response, std::string& out) override {
    bool first = true;
    rows_.forEachCell(response, [&](const Cell& cell) {
      if (!first) out += ',';
      first = false;
      if (cell.kind == CellKind::kFreeText && startsFormula(cell.text)) {
        appendCsvField(out, "'" + cell.text);
      } else {
        appendCsvField(out, cell.text);
      }
    });
    out += "\r\n";
  }

  bool end(std::string&, std::size_t) override { return false; }

 private:
  CellRows rows_;
};

}  // namespace

std::unique_ptr<ExportFormat> makeExportFormat(std::string_view format,
                                               std::vector<questions::Question> questions,
                                               const ExportOptions& options) {
  if (format == "ndjson") return std::make_unique<NdjsonFormat>();
  if (format == "xlsx") return makeXlsxFormat(std::move(questions), options);
  return std::make_unique<CsvFormat>(std::move(questions));
}

void appendCsvField(std::string& out, std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    out += text;
    return;
  }
  out += '"';
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace feedback::responses
