#include "common/questions/form_rules.h"

#include <cmath>

#include "common/core/errors.h"
#include "common/questions/answer_rules.h"
#include "common/questions/recall.h"

namespace feedback::questions {
namespace {

std::string answerMessage(const ErrorDetails& details, std::string_view what) {
  const auto& [field, problem] = *details.begin();
  std::string message = "The answer to '" + field + "' " + problem + ".";
  if (details.size() > 1) {
    message += " " + std::to_string(details.size() - 1) + " more " + std::string(what) + ".";
  }
  return message;
}

AnswerSource sourceOf(const Question& question) {
  return findQuestionType(question.response_type)->source;
}

}  // namespace

bool leftBlank(const Question& question, const boost::json::value& value) {
  return value.is_null() ||
         (value.is_object() && value.as_object().empty() && answeredWithObject(question));
}

bool isAnswered(const boost::json::value& value) {
  if (value.is_null()) return false;
  if (value.is_string()) {
    return value.as_string().find_first_not_of(" \t\r\n") != boost::json::string::npos;
  }
  if (value.is_array()) return !value.as_array().empty();
  if (value.is_object()) return !value.as_object().empty();
  return true;
}

// One response's pass over the form: judges each given value (into its stored form), decides
// visibility along display order and computes calculated values from the visible answers.
class FormRules::Evaluation {
 public:
  Evaluation(const FormRules& form, const AnswerValues& given)
      : form_(form), values_(form.questions_.size()), shown_(form.questions_.size(), false) {
    for (std::size_t i = 0; i < form_.questions_.size(); ++i) {
      const Question& q = form_.questions_[i];
      if (sourceOf(q) != AnswerSource::kRespondent) continue;
      auto it = given.find(q.field_key);
      if (it != given.end() && !leftBlank(q, it->second)) {
        values_[i] = it->second;
        if (auto problem = answerProblem(q, values_[i])) problems_[q.field_key] = *problem;
        // An object whose parts were all blank is no answer (its rule drops blank parts).
        if (leftBlank(q, values_[i])) values_[i] = nullptr;
      }
      if (!isAnswered(values_[i])) {
        // A hidden_field the page did not fill, or filled with nothing.
        if (const auto* fallback = setting(q, "default_value")) values_[i] = *fallback;
      }
    }
  }

  void decideVisibility() {
    const FieldAnswer answer = [this](std::string_view field) { return visibleValue(field); };
    for (std::size_t i = 0; i < form_.questions_.size(); ++i) {
      shown_[i] = conditionHolds(form_.questions_[i].condition, answer);
      decided_ = i + 1;
    }
  }

  bool shown(std::size_t index) const { return shown_[index]; }
  // The judged value of question `index` (null when not given).
  boost::json::value& value(std::size_t index) { return values_[index]; }
  const std::optional<std::string> problem(const std::string& field_key) const {
    auto it = problems_.find(field_key);
    return it == problems_.end() ? std::nullopt : std::optional<std::string>(it->second);
  }

  std::string questionText(const Question& question) {
    return withRecall(question.prompt,
                      [this](std::string_view field) { return visibleValue(field); });
  }

  // The calculated value of question `index`; null when it cannot be computed.
  boost::json::value calculate(std::size_t index) {
    auto formula = form_.formulas_.find(index);
    if (formula == form_.formulas_.end() || active_.count(index)) return nullptr;
    active_.insert(index);
    auto result = formula->second.evaluate([this](const std::string& key) -> std::optional<double> {
      const boost::json::value* v = visibleValue(key);
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
  // The answer to a field ("key" or "key.part") of a decided, visible question (computed for
  // calculated ones); nullptr when it is hidden, undecided, unanswered or has no such part.
  const boost::json::value* visibleValue(std::string_view field) {
    const auto dot = field.find('.');
    auto it = form_.index_.find(field.substr(0, dot));
    if (it == form_.index_.end() || it->second >= decided_ || !shown_[it->second]) return nullptr;
    const std::size_t i = it->second;
    if (sourceOf(form_.questions_[i]) == AnswerSource::kComputed) {
      computed_[i] = calculate(i);
      return computed_[i].is_null() ? nullptr : &computed_[i];
    }
    if (values_[i].is_null()) return nullptr;
    return answerPart(values_[i],
                      dot == std::string_view::npos ? std::string_view() : field.substr(dot + 1));
  }

  const FormRules& form_;
  std::vector<boost::json::value> values_;  // by question index
  std::map<std::string, std::string, std::less<>> problems_;
  std::map<std::size_t, boost::json::value> computed_;
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
                                                    boost::json::value& value) {
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

std::string FormRules::questionText(const Question& question, const AnswerValues& given) const {
  if (question.prompt.find("{{") == std::string::npos) return question.prompt;
  Evaluation evaluation(*this, given);
  evaluation.decideVisibility();
  return evaluation.questionText(question);
}

ErrorDetails FormRules::nameProblems(const AnswerValues& given) const {
  ErrorDetails problems;
  for (const auto& [key, value] : given) {
    const Question* q = find(key);
    if (!q) {
      problems[key] = "is not a question of this link";
    } else if (!value.is_null() && sourceOf(*q) != AnswerSource::kRespondent) {
      boost::json::value ignored = value;
      problems[key] = *answerProblem(*q, ignored);
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
    switch (sourceOf(q)) {
      case AnswerSource::kNone:
        break;
      case AnswerSource::kComputed:
        kept.push_back({&q, evaluation.calculate(i), false, evaluation.questionText(q)});
        break;
      case AnswerSource::kRespondent: {
        auto it = given.find(q.field_key);
        const bool typed = it != given.end() && !leftBlank(q, it->second);
        // A value typed now replaces an uploaded file or recording.
        if (!typed && recorded.count(q.field_key)) {
          kept.push_back({&q, nullptr, true, evaluation.questionText(q)});
          break;
        }
        const boost::json::value& value = evaluation.value(i);
        if (!isAnswered(value) && q.required) missing[q.field_key] = "is required";
        if (value.is_null()) break;
        if (auto problem = evaluation.problem(q.field_key)) {
          invalid[q.field_key] = std::move(*problem);
          break;
        }
        // A copy: later prompts may still recall this value.
        kept.push_back({&q, value, false, evaluation.questionText(q)});
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
