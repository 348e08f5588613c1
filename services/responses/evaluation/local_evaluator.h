#pragma once
// The default evaluator: offline and deterministic, microseconds per answer, so it runs
// inline when an answer is saved or submitted. Sentiment by VADER (sentiment.h), key topics by
// RAKE (key_phrases.h), an extractive summary (extractive_summary.h), the actionable rules
// (actionable.h), custom fields (custom_fields.h) and clarity (clarity.h).

#include "services/responses/evaluation/evaluator.h"
#include "services/responses/evaluation/sentiment.h"

namespace feedback::responses::evaluation {

class LocalEvaluator final : public Evaluator {
 public:
  Insights insights(const EvaluationInput& input) const override;
  double clarity(const EvaluationInput& input) const override;
  std::string followUp(const EvaluationInput& input, int asked) const override;

 private:
  SentimentAnalyzer sentiment_;
};

}  // namespace feedback::responses::evaluation
