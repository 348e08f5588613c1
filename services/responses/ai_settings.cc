#include "services/responses/ai_settings.h"

#include "common/net/api_server.h"

namespace feedback::responses {

AiSettings readAiSettings(Env& env) {
  AiSettings s;
  const std::string evaluator =
      env.choice("AI_EVALUATOR", "local", {"local", "openai", "off"},
                 {"how answers get ai_insights: local (offline, as they are saved), openai (a "
                  "model server, off the request path; ai_insights is {} until filled) or off"});
  if (evaluator == "openai") {
    s.mode = InsightsMode::kQueued;
  } else if (evaluator == "off") {
    s.mode = InsightsMode::kOff;
  }
  s.model.base_url =
      env.text("AI_BASE_URL", "",
               {.meaning = "with openai: an OpenAI-compatible chat-completions server up to its "
                           "version, e.g. http://host:8000/v1",
                .accepted = "an http(s) URL; required with openai"});
  s.model.model =
      env.text("AI_MODEL", "",
               {.meaning = "with openai: the model", .accepted = "text; required with openai"});
  s.model.api_key = env.text("AI_API_KEY", "",
                             {"with openai: the server's bearer token (optional, never logged)"});
  s.model.timeout = std::chrono::milliseconds(
      env.integer("AI_TIMEOUT_MS", 30000, 100, 600000, {"with openai: the deadline of one call"}));
  s.model.ca_bundle =
      env.text("AI_CA_BUNDLE", "", {"with openai: a PEM file of CAs trusted besides the system's"});
  s.jobs.max_attempts =
      env.integer("AI_MAX_ATTEMPTS", 3, 1, 20,
                  {"with openai: calls per answer before the local evaluator answers instead"});
  s.jobs.retry_delay = std::chrono::milliseconds(
      env.integer("AI_RETRY_DELAY_MS", 2000, 1, 3600000,
                  {"with openai: the wait after a failed call, doubled each time"}));
  s.jobs.workers =
      env.integer("AI_WORKERS", 4, 1, 64,
                  {"with openai: calls under way per process (a PostgreSQL connection each)"});
  s.jobs.failures_to_rest =
      env.integer("AI_REST_AFTER_FAILURES", 5, 1, 1000,
                  {"with openai: failed calls in a row after which the server is left to rest"});
  s.jobs.rest = std::chrono::milliseconds(env.integer(
      "AI_REST_MS", 30000, 0, 3600000, {"with openai: how long the server is left to rest"}));
  if (s.mode == InsightsMode::kQueued) {
    if (!net::isHttpUrl(s.model.base_url)) {
      env.problem(
          "AI_BASE_URL must be an http(s) URL such as http://127.0.0.1:8000/v1 when "
          "AI_EVALUATOR=openai");
    }
    if (s.model.model.empty()) env.problem("AI_MODEL is required when AI_EVALUATOR=openai");
  }
  return s;
}

}  // namespace feedback::responses
