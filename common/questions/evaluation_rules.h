#pragma once
// How answers are evaluated and probed (docs/api.md "AI insights and summaries"), stated once:
// which questions get AI insights, and evaluator_config's keys, limits and defaults. The links
// service validates evaluator_config with these limits; the responses service applies them.

#include <cstddef>
#include <string>
#include <vector>

#include "common/questions/question_types.h"

namespace feedback::questions {

inline constexpr double kDefaultClarityThreshold = 0.6;
inline constexpr int kDefaultMaxFollowUps = 2;
inline constexpr int kMaxFollowUps = 5;
inline constexpr std::size_t kMaxCustomFields = 10;
inline constexpr std::size_t kMaxCustomFieldLength = 64;

struct EvaluatorConfig {
  double clarity_threshold = kDefaultClarityThreshold;
  int max_follow_ups = kDefaultMaxFollowUps;
  std::vector<std::string> custom_fields;
};

// The question's evaluator_config with defaults for what it leaves out (it was validated when
// the link was saved; a value of the wrong kind also reads as the default).
EvaluatorConfig evaluatorConfig(const Question& question);

// Whether answers to `question` get AI insights, as its type's row says (text,
// voice_text_fallback, and voice unless its configuration says enable_ai_evaluation: false).
bool isEvaluated(const Question& question);

// Whether saving an answer to `question` may ask a follow-up: probing is on and the question
// is evaluated.
bool isProbed(const Question& question);

}  // namespace feedback::questions
