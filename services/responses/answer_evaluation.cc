#include "services/responses/answer_evaluation.h"

#include <boost/json/parse.hpp>

#include "common/questions/evaluation_rules.h"

namespace feedback::responses {

namespace rv1 = feedback::responses::v1;

std::string answerText(const rv1::Answer& answer) {
  std::string text;
  if (!answer.value_json().empty()) {
    boost::system::error_code ec;
    auto value = boost::json::parse(answer.value_json(), ec);
    if (!ec && value.is_string()) text = value.get_string();
  }
  if (text.empty() && answer.has_transcription()) text = answer.transcription();
  for (const auto& f : answer.follow_ups()) {
    if (f.value().empty()) continue;
    if (!text.empty()) text += '\n';
    text += f.value();
  }
  return text;
}

void AnswerEvaluation::setInsights(const questions::Question& question, rv1::Answer& answer,
                                   const std::string& text,
                                   const questions::EvaluatorConfig& config) const {
  if (!questions::isEvaluated(question) || text.empty()) {
    answer.set_ai_insights_json("{}");
    return;
  }
  answer.set_ai_insights_json(
      evaluation::insightsJson(evaluator_.insights({question.prompt, text, config})));
}

void AnswerEvaluation::saved(const questions::Question& question, rv1::Answer& answer) const {
  const auto config = questions::evaluatorConfig(question);
  const std::string text = answerText(answer);
  setInsights(question, answer, text, config);
  if (!questions::isProbed(question)) return;
  answer.set_probed(true);
  answer.clear_follow_up();
  const int asked = answer.follow_ups_size();
  if (text.empty() || asked >= config.max_follow_ups) return;
  const evaluation::EvaluationInput input{question.prompt, text, config};
  if (evaluator_.clarity(input) < config.clarity_threshold) {
    answer.set_follow_up(evaluator_.followUp(input, asked));
  }
}

void AnswerEvaluation::completed(const questions::Question& question, rv1::Answer& answer) const {
  setInsights(question, answer, answerText(answer), questions::evaluatorConfig(question));
  if (questions::isProbed(question)) answer.set_probed(true);
  answer.clear_follow_up();
}

}  // namespace feedback::responses
