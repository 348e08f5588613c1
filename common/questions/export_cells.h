#pragma once
// A link's questions as the columns of an export, and an answer as their cells (docs/api.md
// "Exports"): per question in display order its value (one column per part of an object
// answer), then for an evaluated question its insights, then for a recorded one its
// recording. What a column holds follows from the question-type table (shape, parts, format,
// evaluation, media); the file formats (CSV, XLSX) only write the cells.

#include <boost/json/object.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "common/questions/question_types.h"

namespace feedback::questions {

// What a cell holds, which decides how a file writes it.
enum class CellKind {
  kEmpty,
  kFreeText,    // what people wrote or chose: CSV guards it against formula injection
  kNormalised,  // a value the service wrote (E.164 phone numbers, dates, times, UUIDs, URLs)
  kNumber,
  kBoolean,    // "true" or "false"
  kTimestamp,  // section 1's format; XLSX writes a date cell
};

struct Cell {
  CellKind kind = CellKind::kEmpty;
  std::string text;   // as CSV writes it (numbers as JSON writes them)
  double number = 0;  // kNumber
};

// What a column takes from its question's answer.
enum class ColumnSource {
  kValue,           // the whole value
  kPart,            // `part` of an object value (contact_info, address, matrix, date_range, range)
  kSentiment,       // ai_insights.sentiment
  kSentimentScore,  // ai_insights.sentiment_score
  kSummary,         // ai_insights.summary
  kKeyTopics,       // ai_insights.key_topics
  kTranscription,
  kDuration,
  kAudioUrl,
};

struct ExportColumn {
  std::string name;          // field_key, or field_key.part
  std::size_t question = 0;  // its index in the questions given to exportColumns
  ColumnSource source = ColumnSource::kValue;
  std::string part;
  CellKind part_kind = CellKind::kFreeText;  // kPart: what the part holds
};

// The columns of `questions` (display order), none for a question without a value
// (help_block) or of a type outside the table.
std::vector<ExportColumn> exportColumns(const std::vector<Question>& questions);

// The cell of `column` from `answer` (an answer object as a record shows it, addresses
// resolved); kEmpty when the answer holds nothing for it.
Cell exportCell(const Question& question, const ExportColumn& column,
                const boost::json::object& answer);

}  // namespace feedback::questions
