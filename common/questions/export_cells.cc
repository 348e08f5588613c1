#include "common/questions/export_cells.h"

#include <charconv>

#include "common/questions/evaluation_rules.h"
#include "common/questions/object_answers.h"

namespace feedback::questions {
namespace {

constexpr std::string_view kListSeparator = "; ";

bool isRange(const Question& q) {
  const auto* range = setting(q, "range");
  return range && range->is_bool() && range->get_bool();
}

// Formats whose values the service wrote itself (normalised on the way in).
bool normalised(ValueFormat format) {
  return format == ValueFormat::kPhone || format == ValueFormat::kDate ||
         format == ValueFormat::kTime || format == ValueFormat::kInstant;
}

Cell numberCell(const boost::json::value& v) {
  Cell cell{.kind = CellKind::kNumber, .text = {}, .number = 0};
  char buffer[32];
  std::to_chars_result written{};
  if (v.is_int64()) {
    cell.number = static_cast<double>(v.get_int64());
    written = std::to_chars(buffer, buffer + sizeof buffer, v.get_int64());
  } else if (v.is_uint64()) {
    cell.number = static_cast<double>(v.get_uint64());
    written = std::to_chars(buffer, buffer + sizeof buffer, v.get_uint64());
  } else {
    cell.number = v.get_double();
    written = std::to_chars(buffer, buffer + sizeof buffer, cell.number);
  }
  cell.text.assign(buffer, written.ptr);
  return cell;
}

// A string, a list of strings joined, a number or a boolean; kEmpty for anything else.
Cell cellOf(const boost::json::value* v, CellKind text_kind) {
  if (!v) return {};
  if (v->is_string()) {
    if (v->get_string().empty()) return {};
    return {.kind = text_kind, .text = std::string(v->get_string()), .number = 0};
  }
  if (v->is_number()) return numberCell(*v);
  if (v->is_bool()) {
    return {.kind = CellKind::kBoolean, .text = v->get_bool() ? "true" : "false", .number = 0};
  }
  if (!v->is_array() || v->get_array().empty()) return {};
  Cell cell{.kind = text_kind, .text = {}, .number = 0};
  for (const auto& item : v->get_array()) {
    if (!cell.text.empty()) cell.text += kListSeparator;
    if (item.is_string()) {
      cell.text += item.get_string();
    } else if (item.is_number()) {
      cell.text += numberCell(item).text;
    }
  }
  return cell;
}

Cell valueCell(const QuestionType& type, const boost::json::value* value) {
  if (!value || value->is_null()) return {};
  if (type.shape == AnswerShape::kFile) {
    const auto* file = value->is_object() ? value->get_object().if_contains("url") : nullptr;
    return cellOf(file, CellKind::kNormalised);
  }
  return cellOf(value, normalised(type.format) ? CellKind::kNormalised : CellKind::kFreeText);
}

// The part `column.part` of an object value, or low/high of a range's [low, high].
Cell partCell(const QuestionType& type, const ExportColumn& column,
              const boost::json::value* value) {
  if (!value) return {};
  if (type.shape == AnswerShape::kSlider) {
    if (!value->is_array() || value->get_array().size() != 2) return {};
    return cellOf(&value->get_array()[column.part == "low" ? 0 : 1], column.part_kind);
  }
  if (!value->is_object()) return {};
  return cellOf(value->get_object().if_contains(column.part), column.part_kind);
}

const boost::json::value* insight(const boost::json::object& answer, std::string_view key) {
  const auto* insights = answer.if_contains("ai_insights");
  return insights && insights->is_object() ? insights->get_object().if_contains(key) : nullptr;
}

void addParts(std::vector<ExportColumn>& out, const Question& q, std::size_t index,
              const QuestionType& type) {
  auto add = [&](std::string_view part, CellKind kind) {
    out.push_back({.name = q.field_key + "." + std::string(part),
                   .question = index,
                   .source = ColumnSource::kPart,
                   .part = std::string(part),
                   .part_kind = kind});
  };
  switch (type.shape) {
    case AnswerShape::kParts:
      for (const auto& part : type.parts) {
        if (!partShown(q, part)) continue;
        const bool service_wrote =
            part.value == PartValue::kPhone || part.value == PartValue::kCountry;
        add(part.name, service_wrote ? CellKind::kNormalised : CellKind::kFreeText);
      }
      return;
    case AnswerShape::kMatrix:
      for (auto row : matrixIds(q, "rows")) add(row, CellKind::kFreeText);
      return;
    case AnswerShape::kDateRange:
      add("start", CellKind::kNormalised);
      add("end", CellKind::kNormalised);
      return;
    case AnswerShape::kSlider:
      add("low", CellKind::kNumber);
      add("high", CellKind::kNumber);
      return;
    default:
      return;
  }
}

bool hasParts(const Question& q, const QuestionType& type) {
  switch (type.shape) {
    case AnswerShape::kParts:
    case AnswerShape::kMatrix:
    case AnswerShape::kDateRange:
      return true;
    case AnswerShape::kSlider:
      return isRange(q);
    default:
      return false;
  }
}

}  // namespace

std::vector<ExportColumn> exportColumns(const std::vector<Question>& questions) {
  std::vector<ExportColumn> out;
  for (std::size_t i = 0; i < questions.size(); ++i) {
    const Question& q = questions[i];
    const QuestionType* type = findQuestionType(q.response_type);
    if (!type || type->shape == AnswerShape::kNone) continue;
    if (hasParts(q, *type)) {
      addParts(out, q, i, *type);
    } else {
      out.push_back({.name = q.field_key,
                     .question = i,
                     .source = ColumnSource::kValue,
                     .part = {},
                     .part_kind = CellKind::kFreeText});
    }
    auto add = [&](std::string_view suffix, ColumnSource source) {
      out.push_back({.name = q.field_key + "." + std::string(suffix),
                     .question = i,
                     .source = source,
                     .part = {},
                     .part_kind = CellKind::kFreeText});
    };
    if (isEvaluated(q)) {
      add("sentiment", ColumnSource::kSentiment);
      add("sentiment_score", ColumnSource::kSentimentScore);
      add("summary", ColumnSource::kSummary);
      add("key_topics", ColumnSource::kKeyTopics);
    }
    if (type->media == AnswerMedia::kRecording) {
      add("transcription", ColumnSource::kTranscription);
      add("duration", ColumnSource::kDuration);
      add("audio_url", ColumnSource::kAudioUrl);
    }
  }
  return out;
}

Cell exportCell(const Question& question, const ExportColumn& column,
                const boost::json::object& answer) {
  const QuestionType* type = findQuestionType(question.response_type);
  if (!type) return {};
  const auto* value = answer.if_contains("value");
  switch (column.source) {
    case ColumnSource::kValue:
      return valueCell(*type, value);
    case ColumnSource::kPart:
      return partCell(*type, column, value);
    case ColumnSource::kSentiment:
      return cellOf(insight(answer, "sentiment"), CellKind::kFreeText);
    case ColumnSource::kSentimentScore:
      return cellOf(insight(answer, "sentiment_score"), CellKind::kNumber);
    case ColumnSource::kSummary:
      return cellOf(insight(answer, "summary"), CellKind::kFreeText);
    case ColumnSource::kKeyTopics:
      return cellOf(insight(answer, "key_topics"), CellKind::kFreeText);
    case ColumnSource::kTranscription:
      return cellOf(answer.if_contains("transcription"), CellKind::kFreeText);
    case ColumnSource::kDuration:
      return cellOf(answer.if_contains("duration"), CellKind::kNumber);
    case ColumnSource::kAudioUrl:
      return cellOf(answer.if_contains("audio_url"), CellKind::kNormalised);
  }
  return {};
}

}  // namespace feedback::questions
