#include "common/questions/evaluation_rules.h"

#include <algorithm>

namespace feedback::questions {

EvaluatorConfig evaluatorConfig(const Question& question) {
  EvaluatorConfig config;
  const auto& o = question.evaluator_config;
  if (const auto* v = o.if_contains("clarity_threshold"); v && v->is_number()) {
    config.clarity_threshold = v->to_number<double>();
  }
  if (const auto* v = o.if_contains("max_follow_ups"); v && v->is_number()) {
    // Links saved while the limit was 10 keep their value; it applies up to today's limit.
    config.max_follow_ups = std::clamp(static_cast<int>(v->to_number<double>()), 0, kMaxFollowUps);
  }
  if (const auto* v = o.if_contains("custom_fields"); v && v->is_array()) {
    for (const auto& name : v->get_array()) {
      if (name.is_string()) config.custom_fields.emplace_back(name.get_string());
    }
  }
  return config;
}

bool isEvaluated(const Question& question) {
  const QuestionType* type = findQuestionType(question.response_type);
  if (!type) return false;
  switch (type->evaluation) {
    case Evaluation::kAlways:
      return true;
    case Evaluation::kUnlessDisabled: {
      const auto* enabled = question.configuration.if_contains("enable_ai_evaluation");
      return !(enabled && enabled->is_bool() && !enabled->get_bool());
    }
    case Evaluation::kUnset:
    case Evaluation::kNever:
      break;
  }
  return false;
}

bool isProbed(const Question& question) {
  return question.enable_dynamic_probing && isEvaluated(question);
}

}  // namespace feedback::questions
