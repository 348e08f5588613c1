// The columns and cells of exports (docs/api.md "Exports"): per question its value, one column
// per part of an object answer, its insights and its recording, as the type's row says.
#include "common/questions/export_cells.h"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

using namespace feedback::questions;

namespace {

Question question(const char* key, const char* type, const char* configuration = "{}") {
  Question q;
  q.uuid = std::string("q-") + key;
  q.field_key = key;
  q.response_type = type;
  q.configuration = boost::json::parse(configuration).as_object();
  return q;
}

std::vector<std::string> names(const std::vector<ExportColumn>& columns) {
  std::vector<std::string> out;
  for (const auto& c : columns) out.push_back(c.name);
  return out;
}

Cell cellOf(const Question& q, const ExportColumn& column, const char* answer_json) {
  return exportCell(q, column, boost::json::parse(answer_json).as_object());
}

}  // namespace

TEST_CASE("export columns follow each question's shape, insights and recording") {
  const std::vector<Question> questions = {
      question("comment", "text"),
      question("note", "help_block", R"({"content": "Thanks"})"),
      question("said", "voice"),
      question("quiet", "voice", R"({"enable_ai_evaluation": false})"),
      question("who", "contact_info", R"({"fields": {"company": {"show": false}}})"),
      question("grid", "matrix",
               R"({"rows": [{"id": "speed", "label": "Speed"}, {"id": "price", "label": "Price"}],
                   "columns": [{"id": "bad", "label": "Bad"}, {"id": "good", "label": "Good"}]})"),
      question("stay", "date_range"),
      question("band", "slider", R"({"min": 0, "max": 10, "range": true})"),
      question("level", "slider", R"({"min": 0, "max": 10})"),
      question("score", "nps"),
  };
  CHECK(names(exportColumns(questions)) == std::vector<std::string>{"comment",
                                                                    "comment.sentiment",
                                                                    "comment.sentiment_score",
                                                                    "comment.summary",
                                                                    "comment.key_topics",
                                                                    "said",
                                                                    "said.sentiment",
                                                                    "said.sentiment_score",
                                                                    "said.summary",
                                                                    "said.key_topics",
                                                                    "said.transcription",
                                                                    "said.duration",
                                                                    "said.audio_url",
                                                                    "quiet",
                                                                    "quiet.transcription",
                                                                    "quiet.duration",
                                                                    "quiet.audio_url",
                                                                    "who.first_name",
                                                                    "who.last_name",
                                                                    "who.email",
                                                                    "who.phone",
                                                                    "grid.speed",
                                                                    "grid.price",
                                                                    "stay.start",
                                                                    "stay.end",
                                                                    "band.low",
                                                                    "band.high",
                                                                    "level",
                                                                    "score"});
}

TEST_CASE("export cells: numbers as written, lists joined, booleans, parts and insights") {
  const auto columns_of = [](const Question& q) { return exportColumns({q}); };

  const auto score = question("score", "number");
  auto cell = cellOf(score, columns_of(score)[0], R"({"value": -3})");
  CHECK(cell.kind == CellKind::kNumber);
  CHECK(cell.text == "-3");
  CHECK(cellOf(score, columns_of(score)[0], R"({"value": 2.5})").text == "2.5");
  CHECK(cellOf(score, columns_of(score)[0], R"({"value": null})").kind == CellKind::kEmpty);

  const auto plans = question("plans", "multiple_choice",
                              R"({"options": ["basic", "pro"], "allow_multiple": true})");
  cell = cellOf(plans, columns_of(plans)[0], R"({"value": ["basic", "pro"]})");
  CHECK(cell.kind == CellKind::kFreeText);
  CHECK(cell.text == "basic; pro");

  const auto again = question("again", "yes_no");
  cell = cellOf(again, columns_of(again)[0], R"({"value": false})");
  CHECK(cell.kind == CellKind::kBoolean);
  CHECK(cell.text == "false");

  const auto phone = question("phone", "phone_number");
  CHECK(cellOf(phone, columns_of(phone)[0], R"({"value": "+14155550100"})").kind ==
        CellKind::kNormalised);

  const auto file = question("cv", "file_upload");
  cell = cellOf(file, columns_of(file)[0],
                R"({"value": {"file_name": "a.pdf", "url": "https://h/media/x"}})");
  CHECK(cell.text == "https://h/media/x");

  const auto band = question("band", "slider", R"({"min": 0, "max": 10, "range": true})");
  CHECK(cellOf(band, columns_of(band)[1], R"({"value": [2, 7]})").text == "7");

  const auto grid = question("grid", "matrix",
                             R"({"rows": [{"id": "speed", "label": "Speed"}], "multiple": true,
          "columns": [{"id": "bad", "label": "Bad"}, {"id": "good", "label": "Good"}]})");
  CHECK(cellOf(grid, columns_of(grid)[0], R"({"value": {"speed": ["bad", "good"]}})").text ==
        "bad; good");

  const auto comment = question("comment", "text");
  const auto columns = columns_of(comment);
  const char* answer =
      R"({"value": "Slow", "ai_insights": {"sentiment": "negative", "sentiment_score": -0.5,
          "summary": "Slow.", "key_topics": ["speed", "support"]}})";
  CHECK(cellOf(comment, columns[1], answer).text == "negative");
  CHECK(cellOf(comment, columns[2], answer).text == "-0.5");
  CHECK(cellOf(comment, columns[2], answer).kind == CellKind::kNumber);
  CHECK(cellOf(comment, columns[4], answer).text == "speed; support");
  CHECK(cellOf(comment, columns[1], R"({"value": "x", "ai_insights": {}})").kind ==
        CellKind::kEmpty);
}
