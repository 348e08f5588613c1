#include "services/responses/evaluation/model_server.h"

#include <boost/json/parse.hpp>

#include "common/core/json_writer.h"
#include "common/net/api_server.h"
#include "common/net/blocking_http_client.h"

namespace feedback::responses::evaluation {
namespace {

constexpr std::size_t kMaxAnswerBytes = 1024 * 1024;

constexpr std::string_view kInstructions =
    "You analyse one answer to a feedback question. Reply with one JSON object and nothing "
    "else, with exactly these keys: \"sentiment\" (\"positive\", \"neutral\" or \"negative\"), "
    "\"sentiment_score\" (a number from -1 to 1; at least 0.05 is positive, at most -0.05 "
    "negative, neutral between), \"actionable\" (true when the answer asks for a change, "
    "reports a problem or suggests something, else false), \"key_topics\" (at most 5 short "
    "phrases taken from the answer) and \"summary\" (the answer's gist in at most 200 "
    "characters).";

// The answer's text without a Markdown code fence some models put around JSON.
std::string_view unfenced(std::string_view text) {
  auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  text.remove_prefix(first);
  if (!text.starts_with("```")) return text;
  auto open_end = text.find('\n');
  auto close = text.rfind("```");
  if (open_end == std::string_view::npos || close <= open_end) return text;
  return text.substr(open_end + 1, close - open_end - 1);
}

}  // namespace

ModelServer::ModelServer(ModelServerSettings settings) : settings_(std::move(settings)) {
  settings_.base_url = net::trimmedBaseUrl(std::move(settings_.base_url));
  client_ = std::make_unique<net::BlockingHttpClient>(
      net::apiServerSettings(settings_.ca_bundle, settings_.timeout, kMaxAnswerBytes));
}

ModelServer::~ModelServer() = default;

std::string ModelServer::requestBody(const EvaluationInput& input) const {
  std::string instructions(kInstructions);
  if (!input.config.custom_fields.empty()) {
    instructions += " Add \"custom_fields\": an object with exactly the keys ";
    for (std::size_t i = 0; i < input.config.custom_fields.size(); ++i) {
      std::string quoted;
      JsonWriter(quoted).string(input.config.custom_fields[i]);
      instructions += (i ? ", " : "") + quoted;
    }
    instructions +=
        ", each the sentence of the answer about it, or null when it says nothing "
        "about it.";
  }
  std::string user = "Question: ";
  user += input.question;
  user += "\nAnswer: ";
  user += input.text;
  std::string out;
  JsonWriter json(out);
  json.beginObject()
      .field("model", settings_.model)
      .key("temperature")
      .number(0)
      .key("response_format")
      .beginObject()
      .field("type", "json_object")
      .endObject()
      .key("messages")
      .beginArray()
      .beginObject()
      .field("role", "system")
      .field("content", instructions)
      .endObject()
      .beginObject()
      .field("role", "user")
      .field("content", user)
      .endObject()
      .endArray()
      .endObject();
  return out;
}

ModelServer::Outcome ModelServer::readAnswer(std::string_view body,
                                             const questions::EvaluatorConfig& config) {
  boost::system::error_code ec;
  auto parsed = boost::json::parse(body, ec);
  const boost::json::value* content = nullptr;
  if (!ec && parsed.is_object()) {
    const auto* choices = parsed.get_object().if_contains("choices");
    if (choices && choices->is_array() && !choices->get_array().empty()) {
      const auto& first = choices->get_array()[0];
      const auto* message = first.is_object() ? first.get_object().if_contains("message") : nullptr;
      if (message && message->is_object()) content = message->get_object().if_contains("content");
    }
  }
  if (!content || !content->is_string()) {
    return {std::nullopt, "invalid answer: no choices[0].message.content"};
  }
  auto insights = insightsFromJson(unfenced(content->get_string()), config);
  if (!insights) return {std::nullopt, "invalid answer: not insights of the contract's shape"};
  return {std::move(insights), {}};
}

ModelServer::Outcome ModelServer::insights(const EvaluationInput& input) const {
  net::HttpRequest request;
  request.url = settings_.base_url + "/chat/completions";
  request.body = requestBody(input);
  request.headers.emplace_back("Accept", "application/json");
  net::addBearer(request, settings_.api_key);
  const auto result = client_->post(std::move(request));
  if (result.status == 0) return {std::nullopt, result.error};
  if (result.status < 200 || result.status > 299) {
    return {std::nullopt, "status " + std::to_string(result.status)};
  }
  if (!result.body_complete) return {std::nullopt, "invalid answer: incomplete or too long"};
  return readAnswer(result.body_excerpt, input.config);
}

}  // namespace feedback::responses::evaluation
