#include "common/questions/question_types.h"

#include <boost/json/parse.hpp>
#include <map>

#include "common/questions/answer_rules.h"
#include "common/questions/configuration_rules.h"

namespace feedback::questions {

const std::array<QuestionType, 13>& questionTypes() {
  using V = ConfigValue;
  using S = AnswerSource;
  static const std::array<QuestionType, 13> table = {{
      {"voice",
       {{"max_duration", V::kInteger, false, 1, 3600}, {"enable_ai_evaluation", V::kBoolean}},
       S::kRespondent,
       &voiceAnswerProblem},
      {"voice_text_fallback",
       {{"max_duration", V::kInteger, false, 1, 3600},
        {"max_characters", V::kInteger, false, 1, 100000}},
       S::kRespondent,
       &voiceTextAnswerProblem},
      {"text", {}, S::kRespondent, &textAnswerProblem},
      {"multiple_choice",
       {{"options", V::kOptions, true, 1, 100},
        {"allow_multiple", V::kBoolean, false, 0, 0, "false"}},
       S::kRespondent,
       &choiceAnswerProblem},
      {"number",
       {{"min", V::kNumber}, {"max", V::kNumber}, {"step", V::kPositiveNumber}},
       S::kRespondent,
       &numberAnswerProblem,
       &checkNumberRange},
      {"rating",
       {{"scale_type", V::kScaleType, false, 0, 0, "\"stars\""},
        {"max_value", V::kInteger, false, 2, 10, "5"}},
       S::kRespondent,
       &ratingAnswerProblem},
      {"image_choice", {{"cards", V::kCards, true, 1, 50}}, S::kRespondent, &cardAnswerProblem},
      {"email", {}, S::kRespondent, &emailAnswerProblem},
      {"date", {}, S::kRespondent, &dateAnswerProblem},
      {"yes_no", {}, S::kRespondent, &yesNoAnswerProblem},
      {"file_upload",
       {{"allowed_types", V::kMimeTypes, false, 0, 50},
        {"max_size_mb", V::kPositiveNumber, false, 0, 100}},
       S::kRespondent,
       &fileAnswerProblem},
      {"calculated", {{"formula", V::kFormula, true}}, S::kComputed},
      {"help_block", {{"content", V::kText, false, 0, 10000}, {"media_url", V::kUrl}}, S::kNone},
  }};
  return table;
}

const QuestionType* findQuestionType(std::string_view name) {
  for (const auto& t : questionTypes()) {
    if (t.name == name) return &t;
  }
  return nullptr;
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
