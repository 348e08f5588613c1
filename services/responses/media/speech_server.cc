#include "services/responses/media/speech_server.h"

#include <boost/json/parse.hpp>

#include "common/core/ascii.h"
#include "common/core/text.h"
#include "common/net/api_server.h"
#include "common/net/blocking_http_client.h"
#include "common/net/multipart_form.h"

namespace feedback::responses {
namespace {

constexpr std::size_t kMaxAnswerBytes = 1024 * 1024;

}  // namespace

SpeechServer::SpeechServer(SpeechServerSettings settings) : settings_(std::move(settings)) {
  settings_.base_url = net::trimmedBaseUrl(std::move(settings_.base_url));
  auto http = net::apiServerSettings(settings_.ca_bundle, settings_.timeout, kMaxAnswerBytes);
  http.max_idle_per_host = 4;
  http.resolver_threads = 1;
  client_ = std::make_unique<net::BlockingHttpClient>(std::move(http));
}

SpeechServer::~SpeechServer() = default;

net::HttpRequest SpeechServer::request(std::string_view wav, std::string_view prompt,
                                       std::string boundary) const {
  net::MultipartForm form =
      boundary.empty() ? net::MultipartForm() : net::MultipartForm(std::move(boundary));
  form.file("file", "recording.wav", "audio/wav", wav)
      .field("model", settings_.model)
      .field("response_format", "json");
  if (!prompt.empty()) form.field("prompt", prompt);
  net::HttpRequest request;
  request.url = settings_.base_url + "/audio/transcriptions";
  request.content_type = form.contentType();
  request.body = form.take();
  request.headers.emplace_back("Accept", "application/json");
  net::addBearer(request, settings_.api_key);
  return request;
}

SpeechServer::Outcome SpeechServer::readAnswer(std::string_view body) {
  boost::system::error_code ec;
  auto parsed = boost::json::parse(body, ec);
  const boost::json::value* text = nullptr;
  if (!ec && parsed.is_object()) text = parsed.get_object().if_contains("text");
  if (!text || !text->is_string()) return {std::nullopt, "invalid answer: no text"};
  if (containsNul(text->get_string())) return {std::nullopt, "invalid answer: NUL in text"};
  // Whisper's servers start the text with a space.
  return {std::string(trim(text->get_string())), {}};
}

SpeechServer::Outcome SpeechServer::transcribe(std::string_view wav,
                                               std::string_view prompt) const {
  const auto result = client_->post(request(wav, prompt));
  if (result.status == 0) return {std::nullopt, result.error};
  if (result.status < 200 || result.status > 299) {
    const bool refused =
        result.status >= 400 && result.status < 500 && result.status != 408 && result.status != 429;
    return {std::nullopt, "status " + std::to_string(result.status), !refused};
  }
  if (!result.body_complete) return {std::nullopt, "invalid answer: incomplete or too long"};
  return readAnswer(result.body_excerpt);
}

}  // namespace feedback::responses
