// The model-server client's request and its reading of answers (the HTTP exchange itself is
// tested against a stub server by tests/integration/test_ai.py).
#include "services/responses/evaluation/model_server.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>

using namespace feedback::responses::evaluation;
using feedback::questions::EvaluatorConfig;

namespace {

std::string chat(const std::string& content) {
  std::string quoted = boost::json::serialize(boost::json::value(content));
  return R"({"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":)"
         R"("assistant","content":)" +
         quoted + R"(},"finish_reason":"stop"}]})";
}

}  // namespace

TEST_CASE("model server: the request asks for JSON insights of one answer", "[evaluation]") {
  ModelServerSettings settings;
  settings.base_url = "http://127.0.0.1:9/v1/";
  settings.model = "tiny";
  settings.api_key = "secret-key";
  const ModelServer server(settings);
  EvaluatorConfig config;
  config.custom_fields = {"price"};
  const auto body = boost::json::parse(server.requestBody({"Why?", "Too \"pricey\"", config}));
  CHECK(body.at("model").as_string() == "tiny");
  CHECK(body.at("response_format").at("type").as_string() == "json_object");
  const auto& messages = body.at("messages").as_array();
  REQUIRE(messages.size() == 2);
  CHECK(messages[0].at("role").as_string() == "system");
  CHECK(std::string(messages[0].at("content").as_string()).find("\"custom_fields\"") !=
        std::string::npos);
  CHECK(std::string(messages[0].at("content").as_string()).find("\"price\"") != std::string::npos);
  CHECK(messages[1].at("content").as_string() == "Question: Why?\nAnswer: Too \"pricey\"");
}

TEST_CASE("model server: answers are believed only in the contract's shape", "[evaluation]") {
  EvaluatorConfig none;
  const char* good = R"({"sentiment":"negative","sentiment_score":-0.7,"actionable":true,)"
                     R"("key_topics":["export"],"summary":"Exports fail."})";
  auto ok = ModelServer::readAnswer(chat(good), none);
  REQUIRE(ok.insights);
  CHECK(ok.insights->summary == "Exports fail.");
  // A fenced block, as some models write it.
  CHECK(ModelServer::readAnswer(chat(std::string("```json\n") + good + "\n```"), none).insights);
  auto prose = ModelServer::readAnswer(chat("I think it is negative."), none);
  CHECK_FALSE(prose.insights);
  CHECK(prose.error.starts_with("invalid answer"));
  CHECK_FALSE(ModelServer::readAnswer("<html>oops</html>", none).insights);
  CHECK_FALSE(ModelServer::readAnswer(R"({"choices":[]})", none).insights);
  CHECK_FALSE(ModelServer::readAnswer(
                  chat(R"({"sentiment":"happy","sentiment_score":0.9,"actionable":false,)"
                       R"("key_topics":[],"summary":""})"),
                  none)
                  .insights);
}

TEST_CASE("model server: an unreachable server fails the call, it does not hang", "[evaluation]") {
  ModelServerSettings settings;
  settings.base_url = "http://127.0.0.1:9/v1";  // the discard port: nothing listens
  settings.model = "tiny";
  settings.timeout = std::chrono::milliseconds(2000);
  const ModelServer server(settings);
  EvaluatorConfig none;
  auto outcome = server.insights({"Why?", "Because.", none});
  CHECK_FALSE(outcome.insights);
  CHECK_FALSE(outcome.error.empty());
}
