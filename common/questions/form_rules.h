#pragma once
// The rules of a whole form applied to one response (docs/api.md "Public intake", "Logic and
// recall"): each value by its question's type (and rewritten into its stored form),
// conditions evaluated along display order (answers to hidden questions are dropped and hidden
// questions are never required), hidden_field defaults, calculated values computed by the
// server, required answers, and each prompt as the respondent saw it.

#include <boost/json/value.hpp>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/errors.h"
#include "common/questions/conditions.h"
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
  // The prompt as the respondent saw it, placeholders filled (recall).
  std::string question_text;
};

// Questions answered by an upload (file_upload files, voice recordings), by field_key.
using RecordedAnswers = std::set<std::string, std::less<>>;

class FormRules {
 public:
  // `questions` in display order; questions of unknown types are ignored.
  explicit FormRules(std::vector<Question> questions);

  const std::vector<Question>& questions() const { return questions_; }
  const Question* find(std::string_view field_key) const;

  // The problem with `value` (not null) as the answer to `question`; nullopt when valid, and
  // then `value` is in its stored form. Calculated and help_block questions accept no value.
  static std::optional<std::string> answerProblem(const Question& question,
                                                  boost::json::value& value);
  // `question`'s prompt as a respondent with the answers `given` sees it.
  std::string questionText(const Question& question, const AnswerValues& given) const;
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

// True for a value that stands for "not answered": null, or an empty object given to a
// question answered with an object (an address or a matrix left blank). `{}` given to another
// type is a wrong value, not a blank one.
bool leftBlank(const Question& question, const boost::json::value& value);

// True when `value` counts as an answer for a required question: not null, not a blank
// string, not an empty list or object.
bool isAnswered(const boost::json::value& value);

}  // namespace feedback::questions
