#include "common/questions/question_types.h"

#include <boost/json/parse.hpp>
#include <map>

#include "common/questions/answer_rules.h"
#include "common/questions/configuration_rules.h"

namespace feedback::questions {

const std::array<QuestionType, 13>& questionTypes() {
  using V = ConfigValue;
  using S = AnswerSource;
  using Sum = SummaryKind;
  using E = Evaluation;
  using M = AnswerMedia;
  using X = AnswerExtra;
  static const std::array<QuestionType, 13> table = {{
      {.name = "voice",
       .configuration = {{"max_duration", V::kInteger, false, 1, 3600},
                         {"enable_ai_evaluation", V::kBoolean}},
       .answer = &voiceAnswerProblem,
       .summary = Sum::kText,
       .evaluation = E::kUnlessDisabled,
       .media = M::kRecording,
       .extra = X::kNone},
      {.name = "voice_text_fallback",
       .configuration = {{"max_duration", V::kInteger, false, 1, 3600},
                         {"max_characters", V::kInteger, false, 1, 100000}},
       .answer = &voiceTextAnswerProblem,
       .summary = Sum::kText,
       .evaluation = E::kAlways,
       .media = M::kRecording,
       .extra = X::kNone},
      {.name = "text",
       .configuration = {},
       .answer = &textAnswerProblem,
       .summary = Sum::kText,
       .evaluation = E::kAlways,
       .media = M::kNone,
       .extra = X::kNone},
      {.name = "multiple_choice",
       .configuration = {{"options", V::kOptions, true, 1, 100},
                         {"allow_multiple", V::kBoolean, false, 0, 0, "false"}},
       .answer = &choiceAnswerProblem,
       .summary = Sum::kChoice,
       .choices = "options",
       .evaluation = E::kNever,
       .media = M::kNone,
       .extra = X::kNone},
      {.name = "number",
       .configuration = {{"min", V::kNumber}, {"max", V::kNumber}, {"step", V::kPositiveNumber}},
       .answer = &numberAnswerProblem,
       .check_keys = &checkNumberRange,
       .summary = Sum::kNumber,
       .evaluation = E::kNever,
       .media = M::kNone,
       .extra = X::kNone},
      {.name = "rating",
       .configuration = {{"scale_type", V::kScaleType, false, 0, 0, "\"stars\""},
                         {"max_value", V::kInteger, false, 2, 10, "5"}},
       .answer = &ratingAnswerProblem,
       .summary = Sum::kRating,
       .evaluation = E::kNever,
       .media = M::kNone,
       .extra = X::kRatingDetails},
      {.name = "image_choice",
       .configuration = {{"cards", V::kCards, true, 1, 50}},
       .answer = &cardAnswerProblem,
       .summary = Sum::kChoice,
       .choices = "cards",
       .evaluation = E::kNever,
       .media = M::kNone,
       .extra = X::kSelectedCard},
      {.name = "email",
       .configuration = {},
       .answer = &emailAnswerProblem,
       .summary = Sum::kNone,
       .evaluation = E::kNever,
       .media = M::kNone,
       .extra = X::kNone},
      {.name = "date",
       .configuration = {},
       .answer = &dateAnswerProblem,
       .summary = Sum::kNone,
       .evaluation = E::kNever,
       .media = M::kNone,
       .extra = X::kNone},
      {.name = "yes_no",
       .configuration = {},
       .answer = &yesNoAnswerProblem,
       .summary = Sum::kYesNo,
       .evaluation = E::kNever,
       .media = M::kNone,
       .extra = X::kNone},
      {.name = "file_upload",
       .configuration = {{"allowed_types", V::kMimeTypes, false, 0, 50},
                         {"max_size_mb", V::kPositiveNumber, false, 0, 100}},
       .answer = &fileAnswerProblem,
       .summary = Sum::kNone,
       .evaluation = E::kNever,
       .media = M::kFile,
       .extra = X::kNone},
      {.name = "calculated",
       .configuration = {{"formula", V::kFormula, true}},
       .source = S::kComputed,
       .summary = Sum::kNone,
       .evaluation = E::kNever,
       .media = M::kNone,
       .extra = X::kNone},
      {.name = "help_block",
       .configuration = {{"content", V::kText, false, 0, 10000}, {"media_url", V::kUrl}},
       .source = S::kNone,
       .summary = Sum::kNone,
       .evaluation = E::kNever,
       .media = M::kNone,
       .extra = X::kNone},
  }};
  return table;
}

const QuestionType* findQuestionType(std::string_view name) {
  for (const auto& t : questionTypes()) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

SummaryKind summaryKindOf(std::string_view name) {
  const QuestionType* type = findQuestionType(name);
  return type ? type->summary : SummaryKind::kNone;
}

AnswerMedia mediaOf(std::string_view name) {
  const QuestionType* type = findQuestionType(name);
  return type ? type->media : AnswerMedia::kNone;
}

AnswerExtra extraOf(std::string_view name) {
  const QuestionType* type = findQuestionType(name);
  return type ? type->extra : AnswerExtra::kNone;
}

const boost::json::value* setting(const Question& question, std::string_view key) {
  if (const auto* configured = question.configuration.if_contains(key)) return configured;
  // The table's defaults, parsed once: "<type>.<key>" -> value.
  static const std::map<std::string, boost::json::value, std::less<>> defaults = [] {
    std::map<std::string, boost::json::value, std::less<>> out;
    for (const auto& type : questionTypes()) {
      for (const auto& k : type.configuration) {
        if (k.default_json.empty()) continue;
        out.emplace(std::string(type.name) + "." + std::string(k.name),
                    boost::json::parse(k.default_json));
      }
    }
    return out;
  }();
  auto it = defaults.find(question.response_type + "." + std::string(key));
  return it == defaults.end() ? nullptr : &it->second;
}

}  // namespace feedback::questions
