#include "services/responses/ai_settings.h"

#include <boost/url/parse.hpp>

namespace feedback::responses {

AiSettings readAiSettings(Env& env) {
  AiSettings s;
  const std::string evaluator = env.text("AI_EVALUATOR", "local");
  if (evaluator == "openai") {
    s.mode = InsightsMode::kQueued;
  } else if (evaluator == "off") {
    s.mode = InsightsMode::kOff;
  } else if (evaluator != "local") {
    env.problem("AI_EVALUATOR must be local, openai or off");
  }
  s.model.base_url = env.text("AI_BASE_URL", "");
  s.model.model = env.text("AI_MODEL", "");
  s.model.api_key = env.text("AI_API_KEY", "");
  s.model.timeout = std::chrono::milliseconds(env.integer("AI_TIMEOUT_MS", 30000, 100, 600000));
  s.model.ca_bundle = env.text("AI_CA_BUNDLE", "");
  s.jobs.max_attempts = env.integer("AI_MAX_ATTEMPTS", 3, 1, 20);
  s.jobs.retry_delay =
      std::chrono::milliseconds(env.integer("AI_RETRY_DELAY_MS", 2000, 1, 3600000));
  s.jobs.workers = env.integer("AI_WORKERS", 4, 1, 64);  // one PostgreSQL connection each
  s.jobs.failures_to_rest = env.integer("AI_REST_AFTER_FAILURES", 5, 1, 1000);
  s.jobs.rest = std::chrono::milliseconds(env.integer("AI_REST_MS", 30000, 0, 3600000));
  if (s.mode == InsightsMode::kQueued) {
    auto url = boost::urls::parse_absolute_uri(s.model.base_url);
    if (!url || (url->scheme() != "http" && url->scheme() != "https") || url->host().empty()) {
      env.problem(
          "AI_BASE_URL must be an http(s) URL such as http://127.0.0.1:8000/v1 when "
          "AI_EVALUATOR=openai");
    }
    if (s.model.model.empty()) env.problem("AI_MODEL is required when AI_EVALUATOR=openai");
  }
  return s;
}

}  // namespace feedback::responses
