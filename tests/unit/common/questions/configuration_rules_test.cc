#include "common/questions/configuration_rules.h"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

#include "common/core/errors.h"

using feedback::ApiError;
using feedback::ErrorCode;
namespace questions = feedback::questions;

namespace {

boost::json::object obj(const char* json) {
  return boost::json::parse(json).as_object();
}

// The error a configuration gets, or kInternalError when it is accepted.
std::pair<ErrorCode, std::string> configError(const char* type, const char* json) {
  try {
    questions::validateConfiguration(*questions::findQuestionType(type), obj(json),
                                     "questions[0].configuration", {"score", "other", "me"}, "me");
  } catch (const ApiError& e) {
    return {e.code(), e.details().empty() ? "" : e.details().begin()->first};
  }
  return {ErrorCode::kInternalError, ""};
}

bool accepted(const char* type, const char* json) {
  return configError(type, json).first == ErrorCode::kInternalError;
}

}  // namespace

TEST_CASE("configuration rules: the 13 types accept their documented configuration",
          "[questions]") {
  CHECK(accepted("voice", R"({"max_duration": 120, "enable_ai_evaluation": true})"));
  CHECK(accepted("voice_text_fallback", R"({"max_duration": 60, "max_characters": 500})"));
  CHECK(accepted("text", "{}"));
  CHECK(accepted("multiple_choice", R"({"options": ["red", "green"], "allow_multiple": false})"));
  CHECK(accepted("number", R"({"min": 0, "max": 10, "step": 0.5})"));
  CHECK(accepted("number", R"({"min": -5.5})"));
  CHECK(accepted("rating", R"({"scale_type": "nps", "max_value": 10})"));
  CHECK(accepted("rating", R"({"scale_type": "emojis"})"));
  CHECK(accepted("image_choice",
                 R"({"cards": [{"id": "c1", "label": "Cat", "media_url": "https://e.com/c.png",
                                "media_type": "image"}]})"));
  CHECK(accepted("email", "{}"));
  CHECK(accepted("date", "{}"));
  CHECK(accepted("yes_no", "{}"));
  CHECK(
      accepted("file_upload", R"({"allowed_types": ["image/png", "image/*"], "max_size_mb": 5})"));
  CHECK(accepted("calculated", R"({"formula": "(score + other) * 2 - 1 / 4"})"));
  CHECK(accepted("help_block", R"({"content": "Thanks", "media_url": "https://e.com/a.png"})"));
}

TEST_CASE("configuration rules: wrong configuration is INVALID_CONFIGURATION with its path",
          "[questions]") {
  struct Case {
    const char* type;
    const char* json;
    const char* path;
  };
  for (const Case& c : {
           Case{"text", R"({"max_duration": 5})", "questions[0].configuration.max_duration"},
           Case{"voice", R"({"max_duration": 0})", "questions[0].configuration.max_duration"},
           Case{"voice", R"({"max_duration": 1.5})", "questions[0].configuration.max_duration"},
           Case{"voice", R"({"max_duration": "60"})", "questions[0].configuration.max_duration"},
           Case{"voice", R"({"enable_ai_evaluation": 1})",
                "questions[0].configuration.enable_ai_evaluation"},
           Case{"voice_text_fallback", R"({"max_characters": -1})",
                "questions[0].configuration.max_characters"},
           Case{"multiple_choice", "{}", "questions[0].configuration.options"},
           Case{"multiple_choice", R"({"options": []})", "questions[0].configuration.options"},
           Case{"multiple_choice", R"({"options": "red"})", "questions[0].configuration.options"},
           Case{"multiple_choice", R"({"options": ["a", "a"]})",
                "questions[0].configuration.options[1]"},
           Case{"multiple_choice", R"({"options": ["a", 2]})",
                "questions[0].configuration.options[1]"},
           Case{"number", R"({"min": 5, "max": 1})", "questions[0].configuration.min"},
           Case{"number", R"({"step": 0})", "questions[0].configuration.step"},
           Case{"number", R"({"max": true})", "questions[0].configuration.max"},
           Case{"rating", R"({"scale_type": "hearts"})", "questions[0].configuration.scale_type"},
           Case{"rating", R"({"max_value": 11})", "questions[0].configuration.max_value"},
           Case{"rating", R"({"max_value": 1})", "questions[0].configuration.max_value"},
           Case{"image_choice", R"({"cards": []})", "questions[0].configuration.cards"},
           Case{"image_choice",
                R"({"cards": [{"id": "c1", "label": "Cat", "media_url": "https://e.com/c.png",
                               "media_type": "gif"}]})",
                "questions[0].configuration.cards[0].media_type"},
           Case{"image_choice",
                R"({"cards": [{"id": "c1", "label": "Cat", "media_url": "ftp://e.com/c.png",
                               "media_type": "image"}]})",
                "questions[0].configuration.cards[0].media_url"},
           Case{"image_choice",
                R"({"cards": [{"id": "c1", "label": "A", "media_url": "https://e.com/a",
                               "media_type": "image"},
                              {"id": "c1", "label": "B", "media_url": "https://e.com/b",
                               "media_type": "image"}]})",
                "questions[0].configuration.cards[1].id"},
           Case{"image_choice",
                R"({"cards": [{"id": "c1", "label": "A", "media_url": "https://e.com/a",
                               "media_type": "image", "extra": 1}]})",
                "questions[0].configuration.cards[0].extra"},
           Case{"file_upload", R"({"allowed_types": ["png"]})",
                "questions[0].configuration.allowed_types[0]"},
           Case{"file_upload", R"({"max_size_mb": 1000})",
                "questions[0].configuration.max_size_mb"},
           Case{"calculated", "{}", "questions[0].configuration.formula"},
           Case{"calculated", R"({"formula": "score +"})", "questions[0].configuration.formula"},
           Case{"calculated", R"({"formula": "unknown * 2"})",
                "questions[0].configuration.formula"},
           Case{"calculated", R"({"formula": "me + 1"})", "questions[0].configuration.formula"},
           Case{"help_block", R"({"media_url": "not a url"})",
                "questions[0].configuration.media_url"},
           Case{"email", R"({"options": ["x"]})", "questions[0].configuration.options"},
       }) {
    INFO(c.type << " " << c.json);
    auto [code, path] = configError(c.type, c.json);
    CHECK(code == ErrorCode::kInvalidConfiguration);
    CHECK(path == c.path);
  }
}

TEST_CASE("configuration rules: evaluator_config", "[questions]") {
  auto code = [](const char* json) {
    try {
      questions::validateEvaluatorConfig(obj(json), "questions[0].evaluator_config");
    } catch (const ApiError& e) {
      return e.code();
    }
    return ErrorCode::kInternalError;
  };
  CHECK(code(R"({"clarity_threshold": 0.7, "max_follow_ups": 2, "custom_fields": ["churn"]})") ==
        ErrorCode::kInternalError);
  CHECK(code(R"({"clarity_threshold": 1.5})") == ErrorCode::kValidationError);
  CHECK(code(R"({"max_follow_ups": 5, "clarity_threshold": 0})") == ErrorCode::kInternalError);
  CHECK(code(R"({"max_follow_ups": 6})") == ErrorCode::kValidationError);
  CHECK(code(R"({"max_follow_ups": -1})") == ErrorCode::kValidationError);
  CHECK(code(R"({"max_follow_ups": 1.5})") == ErrorCode::kValidationError);
  CHECK(code(R"({"custom_fields": [1]})") == ErrorCode::kValidationError);
  CHECK(code(R"({"custom_fields": ["a","b","c","d","e","f","g","h","i","j"]})") ==
        ErrorCode::kInternalError);
  CHECK(code(R"({"custom_fields": ["a","b","c","d","e","f","g","h","i","j","k"]})") ==
        ErrorCode::kValidationError);
  CHECK(code(R"({"custom_fields": ["price", "price"]})") == ErrorCode::kValidationError);
  std::string cyrillic;  // 64 characters, 128 bytes
  for (int i = 0; i < 64; ++i) cyrillic += "ж";
  CHECK(code(("{\"custom_fields\": [\"" + cyrillic + "\"]}").c_str()) == ErrorCode::kInternalError);
  const std::string longest(64, 'x');
  CHECK(code(("{\"custom_fields\": [\"" + longest + "\"]}").c_str()) == ErrorCode::kInternalError);
  CHECK(code(("{\"custom_fields\": [\"" + longest + "x\"]}").c_str()) ==
        ErrorCode::kValidationError);
  CHECK(code(R"({"temperature": 1})") == ErrorCode::kValidationError);
}

TEST_CASE("configuration rules: URLs", "[questions]") {
  CHECK(questions::isHttpUrl("https://example.com/hook", true));
  CHECK(questions::isHttpUrl("http://example.com", false));
  CHECK_FALSE(questions::isHttpUrl("http://example.com", true));
  CHECK_FALSE(questions::isHttpUrl("example.com/hook", false));
  CHECK_FALSE(questions::isHttpUrl("https://", false));
  CHECK_FALSE(questions::isHttpUrl("javascript:alert(1)", false));
}

// Internal gRPC callers reach the services without the gateway's body check: a number past a
// double's range read as infinity would be stored as null.
TEST_CASE("configuration rules: a JSON part holding a number past a double is refused",
          "[questions]") {
  auto code = [](const char* json) {
    try {
      questions::parseObject(json, "questions[0].configuration", ErrorCode::kInvalidConfiguration);
    } catch (const ApiError& e) {
      return e.code();
    }
    return ErrorCode::kInternalError;
  };
  CHECK(code(R"({"min": 1e400})") == ErrorCode::kInvalidConfiguration);
  CHECK(code(R"({"options": [1, -1e999]})") == ErrorCode::kInvalidConfiguration);
  CHECK(code(R"({"min": 1e300})") == ErrorCode::kInternalError);
}
