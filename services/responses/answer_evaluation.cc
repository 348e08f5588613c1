#include "services/responses/answer_evaluation.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include "common/core/json_text.h"
#include "common/questions/evaluation_rules.h"

namespace feedback::responses {

namespace rv1 = feedback::responses::v1;

std::string answerText(const rv1::Answer& answer) {
  // A value of another kind than a string has no text.
  std::string text = jsonStringValue(answer.value_json()).value_or(std::string());
  if (text.empty() && answer.has_transcription()) text = answer.transcription();
  for (const auto& f : answer.follow_ups()) {
    if (f.value().empty()) continue;
    if (!text.empty()) text += '\n';
    text += f.value();
  }
  return text;
}

namespace {

// Whether `insights` (an answer's ai_insights) were made for `config`: present, with custom
// fields exactly for its names (none when it names none).
bool judgedFor(const std::string& insights, const questions::EvaluatorConfig& config) {
  boost::system::error_code ec;
  auto parsed = boost::json::parse(insights, ec);
  if (ec || !parsed.is_object() || parsed.get_object().empty()) return false;
  const auto* fields = parsed.get_object().if_contains("custom_fields");
  if (!fields) return config.custom_fields.empty();
  if (!fields->is_object() || fields->get_object().size() != config.custom_fields.size()) {
    return false;
  }
  for (const auto& name : config.custom_fields) {
    if (!fields->get_object().contains(name)) return false;
  }
  return true;
}

}  // namespace

void AnswerEvaluation::setInsights(const questions::Question& question, rv1::Answer& answer,
                                   const std::string& text,
                                   const questions::EvaluatorConfig& config,
                                   const rv1::Answer* before, std::vector<InsightJob>& jobs) const {
  answer.set_ai_insights_json("{}");
  if (!questions::isEvaluated(question) || text.empty() || mode_ == InsightsMode::kOff) return;
  // The same answer again (a submit after the save, say) is not judged twice: it keeps its
  // insights when they were made for today's custom fields, or, when a model server is still
  // to answer, the job already queued for it (matched by the answer's uuid and text).
  if (before && before->uuid() == answer.uuid() && answerText(*before) == text) {
    const bool pending = mode_ == InsightsMode::kQueued && before->ai_insights_json() == "{}";
    if (pending || judgedFor(before->ai_insights_json(), config)) {
      answer.set_ai_insights_json(before->ai_insights_json());
      return;
    }
  }
  if (mode_ == InsightsMode::kInline) {
    answer.set_ai_insights_json(
        evaluation::insightsJson(evaluator_.insights({question.prompt, text, config})));
  } else {
    jobs.push_back({answer.uuid(), question.prompt,
                    boost::json::serialize(boost::json::value_from(config.custom_fields)), text});
  }
}

void AnswerEvaluation::saved(const questions::Question& question, rv1::Answer& answer,
                             const rv1::Answer* before, std::vector<InsightJob>& jobs) const {
  const auto config = questions::evaluatorConfig(question);
  const std::string text = answerText(answer);
  setInsights(question, answer, text, config, before, jobs);
  answer.clear_follow_up();
  // Follow-ups answered while probing was on stay shown after it is turned off; none is asked.
  answer.set_probed(questions::isProbed(question) || answer.follow_ups_size() > 0);
  if (!questions::isProbed(question)) return;
  const int asked = answer.follow_ups_size();
  if (text.empty() || asked >= config.max_follow_ups) return;
  const evaluation::EvaluationInput input{question.prompt, text, config};
  if (evaluator_.clarity(input) < config.clarity_threshold) {
    answer.set_follow_up(evaluator_.followUp(input, asked));
  }
}

void AnswerEvaluation::completed(const questions::Question& question, rv1::Answer& answer,
                                 const rv1::Answer* before, std::vector<InsightJob>& jobs) const {
  setInsights(question, answer, answerText(answer), questions::evaluatorConfig(question), before,
              jobs);
  answer.set_probed(questions::isProbed(question) || answer.follow_ups_size() > 0);
  answer.clear_follow_up();
}

}  // namespace feedback::responses
