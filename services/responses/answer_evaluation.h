#pragma once
// AI insights and dynamic probing applied to answers (API-CONTRACT.md section 9): which
// answers are evaluated, from what text, and when a follow-up is asked. The evaluator does
// the judging (evaluation/evaluator.h); this says when.

#include "common/questions/question_types.h"
#include "feedback/responses/v1/responses.pb.h"
#include "services/responses/evaluation/evaluator.h"

namespace feedback::responses {

// The text an answer is judged by: its value when that is text (else its transcription), and
// the values of its follow-ups, a line each.
std::string answerText(const feedback::responses::v1::Answer& answer);

class AnswerEvaluation {
 public:
  explicit AnswerEvaluation(const evaluation::Evaluator& evaluator) : evaluator_(evaluator) {}

  // An answer saved on a started response (or a follow-up answered): its insights, and for a
  // probing question the follow-up to ask while the answer's clarity is below the question's
  // clarity_threshold and fewer than max_follow_ups were answered (else none).
  void saved(const questions::Question& question, feedback::responses::v1::Answer& answer) const;
  // An answer of a response being completed: its insights; nothing is pending any more, since
  // a completed response takes no follow-up.
  void completed(const questions::Question& question,
                 feedback::responses::v1::Answer& answer) const;

 private:
  void setInsights(const questions::Question& question, feedback::responses::v1::Answer& answer,
                   const std::string& text, const questions::EvaluatorConfig& config) const;
  const evaluation::Evaluator& evaluator_;
};

}  // namespace feedback::responses
