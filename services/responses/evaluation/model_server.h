#pragma once
// The model-server evaluator's client: any OpenAI-compatible chat-completions server (vLLM,
// Ollama, llama.cpp's server, a hosted API) asked for an answer's insights as one JSON object
// (response_format json_object), whose answer is checked against the contract's shape
// (insightsFromJson) before it is believed. Blocking calls with one deadline each, from any
// thread (net::BlockingHttpClient). The API key is sent as a
// bearer token and appears in no error or log.

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "services/responses/evaluation/evaluator.h"

namespace feedback::net {
class BlockingHttpClient;
}

namespace feedback::responses::evaluation {

struct ModelServerSettings {
  std::string base_url;  // AI_BASE_URL, up to and including the version: http://host:8000/v1
  std::string model;     // AI_MODEL
  std::string api_key;   // AI_API_KEY; empty: no Authorization header
  std::chrono::milliseconds timeout{30000};
  std::string ca_bundle;  // extra CAs (PEM) for an https server; empty: the system's only
};

class ModelServer {
 public:
  explicit ModelServer(ModelServerSettings settings);
  ~ModelServer();
  ModelServer(const ModelServer&) = delete;
  ModelServer& operator=(const ModelServer&) = delete;

  struct Outcome {
    std::optional<Insights> insights;
    std::string error;  // when there are none: "timeout", "status 500", "invalid answer: ..."
  };
  Outcome insights(const EvaluationInput& input) const;

  // The chat-completions request for `input` (exposed for tests).
  std::string requestBody(const EvaluationInput& input) const;
  // The insights in a chat-completions answer, or why there are none (exposed for tests).
  static Outcome readAnswer(std::string_view body, const questions::EvaluatorConfig& config);

 private:
  ModelServerSettings settings_;
  std::unique_ptr<net::BlockingHttpClient> client_;
};

}  // namespace feedback::responses::evaluation
