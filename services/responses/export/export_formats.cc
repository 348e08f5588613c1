#include "services/responses/export/export_formats.h"

#include <array>
#include <boost/json/parse.hpp>

#include "common/api/response_json.h"
#include "common/core/json_writer.h"
#include "common/core/time.h"
#include "common/questions/export_cells.h"

namespace feedback::responses {
namespace {

namespace rv1 = feedback::responses::v1;
using questions::Cell;
using questions::CellKind;

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
constexpr std::array<std::string_view, 5> kResponseColumns = {
    "response_uuid", "status", "respondent_email", "started_at", "submitted_at"};

// One record per line, as the list shows it.
class NdjsonFormat final : public ExportFormat {
 public:
  void begin(std::string&) override {}
  void add(const rv1::Response& response, std::string& out) override {
    JsonWriter json(out);
    api::writeResponse(json, response);
    out += '\n';
  }
  void end(std::string&) override {}
};

// The cells of a response's own columns (kResponseColumns).
std::array<Cell, 5> responseCells(const rv1::Response& r) {
  std::array<Cell, 5> cells;
  cells[0] = {.kind = CellKind::kNormalised, .text = r.uuid(), .number = 0};
  cells[1] = {.kind = CellKind::kNormalised, .text = r.status(), .number = 0};
  if (r.has_respondent_email())
    cells[2] = {.kind = CellKind::kFreeText, .text = r.respondent_email(), .number = 0};
  cells[3] = {
      .kind = CellKind::kTimestamp, .text = formatTimestamp(r.started_at_micros()), .number = 0};
  if (r.submitted_at_micros() != 0) {
    cells[4] = {.kind = CellKind::kTimestamp,
                .text = formatTimestamp(r.submitted_at_micros()),
                .number = 0};
  }
  return cells;
}

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

// Rows of cells: the response's columns, then each question's (questions::exportColumns).
class CellRows {
 public:
  explicit CellRows(std::vector<questions::Question> questions)
      : questions_(std::move(questions)), columns_(questions::exportColumns(questions_)) {}

  std::vector<std::string> header() const {
    std::vector<std::string> out(kResponseColumns.begin(), kResponseColumns.end());
    for (const auto& c : columns_) out.push_back(c.name);
    return out;
  }

  // Calls each(cell) for every column of the response, in order.
  template <class Each>
  void forEachCell(const rv1::Response& response, Each each) {
    for (const auto& cell : responseCells(response)) each(cell);
    boost::system::error_code ec;
    auto answers = boost::json::parse(response.answers_json(), ec);
    answers_by_question_.assign(questions_.size(), nullptr);
    if (!ec && answers.is_array()) {
      for (const auto& item : answers.get_array()) {
        if (item.is_object()) place(item.get_object());
      }
    }
    for (const auto& column : columns_) {
      const auto* answer = answers_by_question_[column.question];
      each(answer ? questions::exportCell(questions_[column.question], column, *answer) : Cell{});
    }
  }

 private:
  // Files the answer under its question: by question uuid, or by field key for a question
  // whose uuid the answer does not name.
  void place(const boost::json::object& answer) {
    auto text = [&answer](std::string_view key) {
      const auto* v = answer.if_contains(key);
      return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
    };
    const auto question_uuid = text("question_uuid"), field_key = text("field_key");
    for (std::size_t i = 0; i < questions_.size(); ++i) {
      if (questions_[i].uuid == question_uuid ||
          (!field_key.empty() && questions_[i].field_key == field_key &&
           !answers_by_question_[i])) {
        answers_by_question_[i] = &answer;
        return;
      }
    }
  }

  std::vector<questions::Question> questions_;
  std::vector<questions::ExportColumn> columns_;
  std::vector<const boost::json::object*> answers_by_question_;
};

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

  void end(std::string&) override {}

 private:
  CellRows rows_;
};

}  // namespace

std::unique_ptr<ExportFormat> makeExportFormat(std::string_view format,
                                               std::vector<questions::Question> questions) {
  if (format == "ndjson") return std::make_unique<NdjsonFormat>();
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
