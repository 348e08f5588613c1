#include "common/questions/form_rules.h"

#include <cmath>

#include "common/core/ascii.h"
#include "common/core/errors.h"
#include "common/questions/answer_rules.h"

namespace feedback::questions {
namespace {

bool textEquals(const boost::json::value& answer, const boost::json::value& expected) {
  if (answer.is_string()) return expected.is_string() && answer.as_string() == expected.as_string();
  if (answer.is_bool()) {
    if (!expected.is_string()) return false;
    std::string word = asciiLowercase(expected.as_string());
    return answer.as_bool() ? (word == "true" || word == "yes") : (word == "false" || word == "no");
  }
  auto a = numericValue(answer), e = numericValue(expected);
  return a && e && *a == *e;
}

bool textContains(const boost::json::value& answer, std::string_view keyword) {
  if (!answer.is_string()) return false;
  return asciiLowercase(answer.as_string()).find(asciiLowercase(keyword)) != std::string::npos;
}

std::string answerMessage(const ErrorDetails& details, std::string_view what) {
  const auto& [field, problem] = *details.begin();
  std::string message = "The answer to '" + field + "' " + problem + ".";
  if (details.size() > 1) {
    message += " " + std::to_string(details.size() - 1) + " more " + std::string(what) + ".";
  }
  return message;
}

}  // namespace

bool conditionHolds(const boost::json::object& condition, const boost::json::value* answer) {
  if (condition.empty()) return true;
  if (!answer || answer->is_null()) return false;
  const auto* op = condition.if_contains("operator");
  const auto* expected = condition.if_contains("value");
  if (!op || !op->is_string() || !expected) return false;
  const std::string_view name = op->as_string();
  if (name == "less_than") {
    auto a = numericValue(*answer), e = numericValue(*expected);
    return a && e && *a < *e;
  }
  if (name == "equals") {
    if (answer->is_array()) {
      for (const auto& item : answer->as_array()) {
        if (textEquals(item, *expected)) return true;
      }
      return false;
    }
    return textEquals(*answer, *expected);
  }
  if (name == "contains") {
    if (!expected->is_string()) return false;
    if (answer->is_array()) {
      for (const auto& item : answer->as_array()) {
        if (textContains(item, expected->as_string())) return true;
      }
      return false;
    }
    return textContains(*answer, expected->as_string());
  }
  return false;
}

bool isAnswered(const boost::json::value& value) {
  if (value.is_null()) return false;
  if (value.is_string()) {
    return value.as_string().find_first_not_of(" \t\r\n") != boost::json::string::npos;
  }
  if (value.is_array()) return !value.as_array().empty();
  return true;
}

// One response's pass over the form: decides visibility along display order and computes
// calculated values from the visible answers.
class FormRules::Evaluation {
 public:
  Evaluation(const FormRules& form, const AnswerValues& given)
      : form_(form), given_(given), shown_(form.questions_.size(), false) {}

  void decideVisibility() {
    for (std::size_t i = 0; i < form_.questions_.size(); ++i) {
      const Question& q = form_.questions_[i];
      const boost::json::value* tested = nullptr;
      boost::json::value computed;
      if (const auto* field = q.condition.if_contains("field"); field && field->is_string()) {
        tested = visibleValue(field->as_string(), computed);
      }
      shown_[i] = conditionHolds(q.condition, tested);
      decided_ = i + 1;
    }
  }

  bool shown(std::size_t index) const { return shown_[index]; }

  // The calculated value of question `index`; null when it cannot be computed.
  boost::json::value calculate(std::size_t index) {
    auto formula = form_.formulas_.find(index);
    if (formula == form_.formulas_.end() || active_.count(index)) return nullptr;
    active_.insert(index);
    auto result = formula->second.evaluate([this](const std::string& key) -> std::optional<double> {
      boost::json::value computed;
      const boost::json::value* v = visibleValue(key, computed);
      return v ? numericValue(*v) : std::nullopt;
    });
    active_.erase(index);
    if (!result) return nullptr;
    if (std::floor(*result) == *result && std::fabs(*result) < 9e15) {
      return static_cast<int64_t>(*result);
    }
    return *result;
  }

 private:
  // The answer of a decided, visible question (computed into `storage` for calculated ones);
  // nullptr when it is hidden, undecided or unanswered.
  const boost::json::value* visibleValue(std::string_view key, boost::json::value& storage) {
    auto it = form_.index_.find(key);
    if (it == form_.index_.end() || it->second >= decided_ || !shown_[it->second]) return nullptr;
    const Question& q = form_.questions_[it->second];
    if (findQuestionType(q.response_type)->source == AnswerSource::kComputed) {
      storage = calculate(it->second);
      return storage.is_null() ? nullptr : &storage;
    }
    auto given = given_.find(key);
    return given == given_.end() || given->second.is_null() ? nullptr : &given->second;
  }

  const FormRules& form_;
  const AnswerValues& given_;
  std::vector<bool> shown_;
  std::size_t decided_ = 0;
  std::set<std::size_t> active_;  // calculated questions being evaluated (cycle guard)
};

FormRules::FormRules(std::vector<Question> questions) {
  for (auto& q : questions) {
    const QuestionType* type = findQuestionType(q.response_type);
    if (!type) continue;
    const std::size_t index = questions_.size();
    if (type->source == AnswerSource::kComputed) {
      const boost::json::value* text = setting(q, "formula");
      if (text && text->is_string()) {
        if (auto formula = Formula::parse(text->as_string(), nullptr)) {
          formulas_.emplace(index, std::move(*formula));
        }
      }
    }
    index_.emplace(q.field_key, index);
    questions_.push_back(std::move(q));
  }
}

const Question* FormRules::find(std::string_view field_key) const {
  auto it = index_.find(field_key);
  return it == index_.end() ? nullptr : &questions_[it->second];
}

std::optional<std::string> FormRules::answerProblem(const Question& question,
                                                    const boost::json::value& value) {
  const QuestionType* type = findQuestionType(question.response_type);
  if (!type) return "belongs to a question of an unknown type";
  switch (type->source) {
    case AnswerSource::kComputed:
      return "is calculated by the server and cannot be given";
    case AnswerSource::kNone:
      return "cannot be given: this question takes no answer";
    case AnswerSource::kRespondent:
      break;
  }
  return type->answer(question, value);
}

ErrorDetails FormRules::nameProblems(const AnswerValues& given) const {
  ErrorDetails problems;
  for (const auto& [key, value] : given) {
    const Question* q = find(key);
    if (!q) {
      problems[key] = "is not a question of this link";
    } else if (!value.is_null() &&
               findQuestionType(q->response_type)->source != AnswerSource::kRespondent) {
      problems[key] = *answerProblem(*q, value);
    }
  }
  return problems;
}

std::vector<KeptAnswer> FormRules::complete(const AnswerValues& given,
                                            const RecordedAnswers& recorded) const {
  Evaluation evaluation(*this, given);
  evaluation.decideVisibility();
  std::vector<KeptAnswer> kept;
  ErrorDetails invalid = nameProblems(given), missing;
  for (std::size_t i = 0; i < questions_.size(); ++i) {
    if (!evaluation.shown(i)) continue;
    const Question& q = questions_[i];
    switch (findQuestionType(q.response_type)->source) {
      case AnswerSource::kNone:
        break;
      case AnswerSource::kComputed:
        kept.push_back({&q, evaluation.calculate(i)});
        break;
      case AnswerSource::kRespondent: {
        auto it = given.find(q.field_key);
        const bool typed = it != given.end() && !it->second.is_null();
        // A value typed now replaces an uploaded file or recording.
        if (!typed && recorded.count(q.field_key)) {
          kept.push_back({&q, nullptr, true});
          break;
        }
        const bool answered = it != given.end() && isAnswered(it->second);
        if (!answered && q.required) missing[q.field_key] = "is required";
        if (!typed) break;
        if (auto problem = answerProblem(q, it->second)) {
          invalid[q.field_key] = std::move(*problem);
          break;
        }
        kept.push_back({&q, it->second});
        break;
      }
    }
  }
  if (!invalid.empty()) {
    std::string message = answerMessage(invalid, "answers are invalid");
    throw ApiError(ErrorCode::kInvalidAnswer, std::move(message), std::move(invalid));
  }
  if (!missing.empty()) {
    std::string message = "The question '" + missing.begin()->first + "' needs an answer.";
    if (missing.size() > 1) {
      message += " " + std::to_string(missing.size() - 1) + " more required answers are missing.";
    }
    throw ApiError(ErrorCode::kRequiredAnswerMissing, std::move(message), std::move(missing));
  }
  return kept;
}

}  // namespace feedback::questions
