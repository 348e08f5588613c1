#pragma once
// What the responses service asks of an AI evaluator
// (docs/api.md "AI insights and summaries"): insights on an answer's text, its clarity for
// dynamic probing, and the follow-up prompt to ask. Two implementations: LocalEvaluator
// (local_evaluator.h: offline, microseconds, the default) and the model-server evaluator
// (model_server.h), chosen by AI_EVALUATOR.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/questions/evaluation_rules.h"
#include "services/responses/evaluation/custom_fields.h"

namespace feedback::responses::evaluation {

struct EvaluationInput {
  std::string_view question;  // the prompt the answer answers
  std::string_view text;      // the answer's text, its follow-up answers included
  const questions::EvaluatorConfig& config;
};

struct Insights {
  std::string sentiment;       // positive, neutral or negative
  double sentiment_score = 0;  // in [-1, 1]
  bool actionable = false;
  std::vector<std::string> key_topics;  // at most 5
  std::string summary;                  // at most 200 characters
  // Present exactly when the question names custom fields.
  std::optional<CustomFieldValues> custom_fields;
};

inline constexpr std::size_t kMaxKeyTopics = 5;

// The ai_insights object as the API shows it.
std::string insightsJson(const Insights& insights);

// Insights read from a JSON object (a model's answer), checked against the contract's shape
// for `config`: nullopt when anything is missing, of the wrong kind or out of range. The
// label is then made to follow the score by VADER's thresholds (a model may disagree near
// them).
std::optional<Insights> insightsFromJson(std::string_view json,
                                         const questions::EvaluatorConfig& config);

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  virtual Insights insights(const EvaluationInput& input) const = 0;
  // From 0 (says nothing) to 1 (clear and complete); probing asks a follow-up below the
  // question's clarity_threshold.
  virtual double clarity(const EvaluationInput& input) const = 0;
  // The follow-up to ask after `asked` follow-ups were answered.
  virtual std::string followUp(const EvaluationInput& input, int asked) const = 0;
};

}  // namespace feedback::responses::evaluation
