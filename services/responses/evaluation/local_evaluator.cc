#include "services/responses/evaluation/local_evaluator.h"

#include "services/responses/evaluation/actionable.h"
#include "services/responses/evaluation/clarity.h"
#include "services/responses/evaluation/extractive_summary.h"
#include "services/responses/evaluation/key_phrases.h"

namespace feedback::responses::evaluation {

Insights LocalEvaluator::insights(const EvaluationInput& input) const {
  Insights out;
  out.sentiment_score = sentiment_.scores(input.text).compound;
  out.sentiment = std::string(sentimentLabel(out.sentiment_score));
  out.actionable = isActionable(input.text);
  const auto phrases = keyPhrases(input.text, kMaxKeyTopics);
  for (const auto& p : phrases) out.key_topics.push_back(p.text);
  out.summary = extractiveSummary(input.text, phrases);
  if (!input.config.custom_fields.empty()) {
    out.custom_fields = customFields(input.text, input.config.custom_fields);
  }
  return out;
}

double LocalEvaluator::clarity(const EvaluationInput& input) const {
  return evaluation::clarity(input.text, customFields(input.text, input.config.custom_fields));
}

std::string LocalEvaluator::followUp(const EvaluationInput& input, int asked) const {
  return followUpPrompt(customFields(input.text, input.config.custom_fields),
                        sentiment_.scores(input.text).compound, asked);
}

}  // namespace feedback::responses::evaluation
