#pragma once
// How the responses service evaluates answers, from the environment:
//   AI_EVALUATOR       local (default: offline, inline), openai (a model server, through
//                      queued jobs) or off (no insights; for measurements)
//   AI_BASE_URL        the OpenAI-compatible server, up to its version (http://host:8000/v1)
//   AI_MODEL           the model to ask
//   AI_API_KEY         its bearer token (optional; never logged)
//   AI_TIMEOUT_MS      deadline of one model call [30000]
//   AI_MAX_ATTEMPTS    calls per answer before the local evaluator answers instead [3]
//   AI_RETRY_DELAY_MS  wait after the first failed call, doubled after each [2000]
//   AI_WORKERS         model calls under way at once per process [4]
//   AI_REST_AFTER_FAILURES, AI_REST_MS   failed calls in a row after which the server rests,
//                      the local evaluator answering meanwhile, and for how long [5, 30000]
//   AI_CA_BUNDLE       extra CAs (PEM) for an https model server

#include "common/core/config.h"
#include "services/responses/answer_evaluation.h"
#include "services/responses/evaluation/model_server.h"
#include "services/responses/insight_jobs.h"

namespace feedback::responses {

struct AiSettings {
  InsightsMode mode = InsightsMode::kInline;
  evaluation::ModelServerSettings model;
  InsightJobSettings jobs;
};

// Every problem goes to `env` (AI_BASE_URL and AI_MODEL are required by openai).
AiSettings readAiSettings(Env& env);

}  // namespace feedback::responses
