#pragma once
// The rules of a whole form applied to one response (docs/api.md "Public intake"): each value
// by its question's type, conditions evaluated along display order (answers to hidden
// questions are dropped and hidden questions are never required), calculated values computed
// by the server, and required answers.

#include <boost/json/value.hpp>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/errors.h"
#include "common/questions/formula.h"
#include "common/questions/question_types.h"

namespace feedback::questions {

// A response's values by field_key. JSON null stands for "not answered".
using AnswerValues = std::map<std::string, boost::json::value, std::less<>>;

// An answer a completed response keeps.
struct KeptAnswer {
  const Question* question = nullptr;
  // The respondent's value, or the computed value of a calculated question (null when its
  // formula cannot be evaluated for this response: a missing operand, a division by zero).
  boost::json::value value;
  // Answered by an upload (a file or a recording): the stored answer is kept as it is.
  bool recorded = false;
};

// Questions answered by an upload (file_upload files, voice recordings), by field_key.
using RecordedAnswers = std::set<std::string, std::less<>>;

// Whether `condition` shows its question when the tested field's answer is `answer` (null
// when that field is unanswered or hidden). `{}` always shows. Operators:
//   less_than  the answer is a number below the value;
//   equals     numbers compare as numbers, text exactly, a list holds the value, a yes/no
//              answer equals "true"/"yes" or "false"/"no" (any case);
//   contains   the text answer (or one listed option) contains the value, ignoring ASCII case.
bool conditionHolds(const boost::json::object& condition, const boost::json::value* answer);

class FormRules {
 public:
  // `questions` in display order; questions of unknown types are ignored.
  explicit FormRules(std::vector<Question> questions);

  const std::vector<Question>& questions() const { return questions_; }
  const Question* find(std::string_view field_key) const;

  // The problem with `value` (not null) as the answer to `question`; nullopt when valid.
  // Calculated and help_block questions accept no value.
  static std::optional<std::string> answerProblem(const Question& question,
                                                  const boost::json::value& value);
  // The answers a completed response keeps, in display order: visible questions only,
  // calculated values computed. INVALID_ANSWER, with a detail per field_key, for every given
  // value that names no question, is given to a question that takes none (calculated,
  // help_block), or breaks the rule of a visible question (values of hidden questions are
  // dropped unjudged); then REQUIRED_ANSWER_MISSING, with a detail per field_key, when a
  // visible required question is unanswered. Questions in `recorded` without a value given
  // are answered by their recording.
  std::vector<KeptAnswer> complete(const AnswerValues& given,
                                   const RecordedAnswers& recorded = {}) const;

 private:
  class Evaluation;
  // Given names that are no question, and values given to questions that take none.
  ErrorDetails nameProblems(const AnswerValues& given) const;
  std::vector<Question> questions_;
  std::map<std::string, std::size_t, std::less<>> index_;
  std::map<std::size_t, Formula> formulas_;  // by question index
};

// True when `value` counts as an answer for a required question: not null, not a blank
// string, not an empty list.
bool isAnswered(const boost::json::value& value);

}  // namespace feedback::questions
