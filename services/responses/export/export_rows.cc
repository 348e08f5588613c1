#include "services/responses/export/export_rows.h"

#include <array>
#include <boost/json/parse.hpp>
#include <string_view>

#include "common/core/time.h"

namespace feedback::responses {
namespace {

namespace rv1 = feedback::responses::v1;
using questions::Cell;
using questions::CellKind;

constexpr std::array<std::string_view, 5> kResponseColumns = {
    "response_uuid", "status", "respondent_email", "started_at", "submitted_at"};

// A timestamp's cell: its text, and its unix seconds as the number (XLSX's date cell).
Cell timestampCell(int64_t micros) {
  return {.kind = CellKind::kTimestamp,
          .text = formatTimestamp(micros),
          .number = static_cast<double>(micros) / 1e6};
}

// The cells of a response's own columns (kResponseColumns).
std::array<Cell, 5> responseCells(const rv1::Response& r) {
  std::array<Cell, 5> cells;
  cells[0] = {.kind = CellKind::kNormalised, .text = r.uuid(), .number = 0};
  cells[1] = {.kind = CellKind::kNormalised, .text = r.status(), .number = 0};
  if (r.has_respondent_email()) {
    cells[2] = {.kind = CellKind::kFreeText, .text = r.respondent_email(), .number = 0};
  }
  cells[3] = timestampCell(r.started_at_micros());
  if (r.submitted_at_micros() != 0) cells[4] = timestampCell(r.submitted_at_micros());
  return cells;
}

}  // namespace

CellRows::CellRows(std::vector<questions::Question> questions)
    : questions_(std::move(questions)), columns_(questions::exportColumns(questions_)) {}

std::vector<std::string> CellRows::header() const {
  std::vector<std::string> out(kResponseColumns.begin(), kResponseColumns.end());
  for (const auto& c : columns_) out.push_back(c.name);
  return out;
}

void CellRows::forEachCell(const rv1::Response& response,
                           const std::function<void(const Cell&)>& each) {
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

// Files the answer under its question: by question uuid, or by field key for a question whose
// uuid the answer does not name.
void CellRows::place(const boost::json::object& answer) {
  auto text = [&answer](std::string_view key) {
    const auto* v = answer.if_contains(key);
    return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
  };
  const auto question_uuid = text("question_uuid"), field_key = text("field_key");
  for (std::size_t i = 0; i < questions_.size(); ++i) {
    if (questions_[i].uuid == question_uuid ||
        (!field_key.empty() && questions_[i].field_key == field_key && !answers_by_question_[i])) {
      answers_by_question_[i] = &answer;
      return;
    }
  }
}

}  // namespace feedback::responses
