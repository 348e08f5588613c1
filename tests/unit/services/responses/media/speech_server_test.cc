// The speech-server client's request and its reading of answers (the HTTP exchange itself is
// tested against a stub server by tests/integration/test_media.py), and the hints it sends.
#include "services/responses/media/speech_server.h"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

#include "services/responses/media/recognition_hints.h"

using feedback::responses::recognitionHints;
using feedback::responses::SpeechServer;
using feedback::responses::SpeechServerSettings;

TEST_CASE("speech server: the request is the contract's multipart form", "[media]") {
  SpeechServerSettings settings;
  settings.base_url = "http://127.0.0.1:9/v1/";
  settings.model = "large-v3";
  settings.api_key = "stt-secret";
  const SpeechServer server(settings);
  const auto request = server.request("RIFFwav", "How \"was\" it?\r\nInjected", "BOUND");
  CHECK(request.url == "http://127.0.0.1:9/v1/audio/transcriptions");
  CHECK(request.content_type == "multipart/form-data; boundary=BOUND");
  CHECK(request.body ==
        "--BOUND\r\nContent-Disposition: form-data; name=\"file\"; filename=\"recording.wav\"\r\n"
        "Content-Type: audio/wav\r\n\r\nRIFFwav\r\n"
        "--BOUND\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nlarge-v3\r\n"
        "--BOUND\r\nContent-Disposition: form-data; name=\"response_format\"\r\n\r\njson\r\n"
        "--BOUND\r\nContent-Disposition: form-data; name=\"prompt\"\r\n\r\n"
        "How \"was\" it?\r\nInjected\r\n"
        "--BOUND--\r\n");
  const auto auth = std::find_if(request.headers.begin(), request.headers.end(),
                                 [](const auto& h) { return h.first == "Authorization"; });
  REQUIRE(auth != request.headers.end());
  CHECK(auth->second == "Bearer stt-secret");
  // No prompt part without hints; a random boundary otherwise.
  const auto bare = server.request("RIFF", "");
  CHECK(bare.body.find("name=\"prompt\"") == std::string::npos);
  CHECK(bare.content_type.starts_with("multipart/form-data; boundary=feedback-"));
  CHECK(bare.body.ends_with("--\r\n"));
}

TEST_CASE("speech server: only a JSON object with text is a transcript", "[media]") {
  auto ok = SpeechServer::readAnswer(R"({"text":"  Hello there. "})");
  REQUIRE(ok.text);
  CHECK(*ok.text == "Hello there.");
  CHECK(SpeechServer::readAnswer(R"({"text":""})").text == std::string());
  for (const char* bad : {"Hello there.", R"({"text": 3})", R"({"words": []})", R"(["text"])",
                          R"({"text":"a\u0000b"})", R"({"text": "cut)"}) {
    const auto outcome = SpeechServer::readAnswer(bad);
    CHECK_FALSE(outcome.text);
    CHECK(outcome.error.starts_with("invalid answer"));
  }
}

TEST_CASE("speech server: hints are the prompt, options and custom fields", "[media]") {
  feedback::questions::Question voice;
  voice.prompt = "What should we improve?";
  voice.response_type = "voice";
  CHECK(recognitionHints(voice) == "What should we improve?");
  voice.evaluator_config =
      boost::json::parse(R"({"custom_fields": ["delivery_time", "price"]})").as_object();
  CHECK(recognitionHints(voice) == "What should we improve? Delivery time, price.");
  feedback::questions::Question choice;
  choice.prompt = "Which plan?";
  choice.response_type = "multiple_choice";
  choice.configuration = boost::json::parse(R"({"options": ["Turquoise", "Amber"]})").as_object();
  CHECK(recognitionHints(choice) == "Which plan? Turquoise, Amber.");
}
