#pragma once
// AI insights and dynamic probing applied to answers (docs/api.md "AI insights and summaries"):
// which answers are evaluated, from what text, and when a follow-up is asked. The evaluator
// does the judging (evaluation/evaluator.h); this says when.

#include <vector>

#include "common/questions/question_types.h"
#include "feedback/responses/v1/responses.pb.h"
#include "services/responses/evaluation/evaluator.h"
#include "services/responses/responses_store.h"

namespace feedback::responses {

// The text an answer is judged by: its value when that is text (else its transcription), and
// the values of its follow-ups, a line each.
std::string answerText(const feedback::responses::v1::Answer& answer);

// How insights are filled (AI_EVALUATOR).
enum class InsightsMode {
  kInline,  // the evaluator fills ai_insights as the answer is saved (the local one: microseconds)
  kQueued,  // a model server fills them later: ai_insights stays {} and a job is queued
  kOff,     // never (ai_insights stays {}); probing still asks
};

class AnswerEvaluation {
 public:
  AnswerEvaluation(const evaluation::Evaluator& evaluator, InsightsMode mode)
      : evaluator_(evaluator), mode_(mode) {}

  // An answer saved on a started response (or a follow-up answered): its insights, and for a
  // probing question the follow-up to ask while the answer's clarity is below the question's
  // clarity_threshold and fewer than max_follow_ups were answered (else none). `before`: the
  // answer it replaces, whose insights it keeps when it says the same (queued mode). Jobs for
  // a model server go to `jobs`.
  void saved(const questions::Question& question, feedback::responses::v1::Answer& answer,
             const feedback::responses::v1::Answer* before, std::vector<InsightJob>& jobs) const;
  // An answer of a response being completed: its insights; nothing is pending any more, since
  // a completed response takes no follow-up.
  void completed(const questions::Question& question, feedback::responses::v1::Answer& answer,
                 const feedback::responses::v1::Answer* before,
                 std::vector<InsightJob>& jobs) const;

 private:
  void setInsights(const questions::Question& question, feedback::responses::v1::Answer& answer,
                   const std::string& text, const questions::EvaluatorConfig& config,
                   const feedback::responses::v1::Answer* before,
                   std::vector<InsightJob>& jobs) const;
  const evaluation::Evaluator& evaluator_;
  const InsightsMode mode_;
};

}  // namespace feedback::responses
