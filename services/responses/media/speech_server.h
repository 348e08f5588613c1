#pragma once
// The speech-server transcriber's client (TRANSCRIBER=openai, API-CONTRACT section 14): any
// OpenAI-compatible speech-to-text server (whisper.cpp's server, faster-whisper servers, vLLM,
// LocalAI, hosted APIs) is sent a recording as a 16 kHz mono WAV in multipart form data, with
// the model, response_format=json and the question's hints as the prompt, and answers
// {"text": ...}. Blocking calls with one deadline each, from any thread. The API key is sent
// as a bearer token and appears in no error or log.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/net/http_client.h"

namespace feedback::net {
class BlockingHttpClient;
}

namespace feedback::responses {

struct SpeechServerSettings {
  std::string base_url;  // STT_BASE_URL, up to and including the version: http://host:8080/v1
  std::string model = "whisper-1";
  std::string api_key;  // empty: no Authorization header
  std::chrono::milliseconds timeout{120000};
  std::string ca_bundle;  // extra CAs (PEM) for an https server; empty: the system's only
};

class SpeechServer {
 public:
  explicit SpeechServer(SpeechServerSettings settings);
  ~SpeechServer();
  SpeechServer(const SpeechServer&) = delete;
  SpeechServer& operator=(const SpeechServer&) = delete;

  struct Outcome {
    std::optional<std::string> text;
    std::string error;  // when there is none: "timeout", "status 500", "invalid answer: ..."
    // False when asking again cannot help: the server refused the request itself (a 4xx
    // other than 408 and 429: too large, a model it lacks, a wrong key).
    bool worth_retrying = true;
  };
  Outcome transcribe(std::string_view wav, std::string_view prompt) const;

  // The transcription request for a recording (exposed for tests); `boundary` empty: random.
  net::HttpRequest request(std::string_view wav, std::string_view prompt,
                           std::string boundary = {}) const;
  // The text of a transcription answer, or why there is none (exposed for tests).
  static Outcome readAnswer(std::string_view body);

 private:
  SpeechServerSettings settings_;
  std::unique_ptr<net::BlockingHttpClient> client_;
};

}  // namespace feedback::responses
