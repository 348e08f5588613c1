#include "common/questions/question_types.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "common/questions/evaluation_rules.h"

namespace q = feedback::questions;

// Every row states every fact of its type: adding a type means adding a row, and a row that
// leaves a fact out fails here rather than falling into some default elsewhere.
TEST_CASE("question types: every row states every fact of its type", "[questions]") {
  for (const auto& type : q::questionTypes()) {
    INFO(type.name);
    CHECK(type.summary != q::SummaryKind::kUnset);
    CHECK(type.evaluation != q::Evaluation::kUnset);
    CHECK(type.media != q::AnswerMedia::kUnset);
    CHECK(type.extra != q::AnswerExtra::kUnset);
    CHECK(type.display != q::Display::kUnset);
    CHECK(type.shape != q::AnswerShape::kUnset);
    CHECK(type.text != q::TextForm::kUnset);
    // A scale where the summary or the record needs one, and only there.
    CHECK((type.scale != nullptr) == (type.summary == q::SummaryKind::kRating ||
                                      type.extra == q::AnswerExtra::kRatingDetails));
    // Parts are what an object answer of named fields holds, and what its `fields` key shows.
    CHECK((type.parts.size() > 0) == (type.shape == q::AnswerShape::kParts));
    if (type.shape == q::AnswerShape::kParts) {
      bool configured = false;
      for (const auto& key : type.configuration) configured |= key.value == q::ConfigValue::kParts;
      CHECK(configured);
    }
    // What takes no answer has no shape to answer with.
    CHECK((type.source == q::AnswerSource::kNone) == (type.shape == q::AnswerShape::kNone));
    // A drawing or a file is uploaded, and its answer is a stored file.
    CHECK((type.shape == q::AnswerShape::kFile) ==
          (type.media == q::AnswerMedia::kFile || type.media == q::AnswerMedia::kDrawing));
    // The choices a summary counts are a configuration key of the type, and only choice
    // types name one.
    CHECK((type.summary == q::SummaryKind::kChoice) == !type.choices.empty());
    if (!type.choices.empty()) {
      bool configured = false;
      for (const auto& key : type.configuration) configured |= key.name == type.choices;
      CHECK(configured);
    }
    // Only what respondents answer is summed up beyond "answered", evaluated or holds media.
    if (type.source != q::AnswerSource::kRespondent) {
      CHECK(type.summary == q::SummaryKind::kNone);
      CHECK(type.evaluation == q::Evaluation::kNever);
      CHECK(type.media == q::AnswerMedia::kNone);
      CHECK(type.extra == q::AnswerExtra::kNone);
    }
    // A type evaluated unless disabled has the key that disables it.
    if (type.evaluation == q::Evaluation::kUnlessDisabled) {
      bool switchable = false;
      for (const auto& key : type.configuration) switchable |= key.name == "enable_ai_evaluation";
      CHECK(switchable);
    }
  }
}

TEST_CASE("question types: the facts the summary and the evaluator read", "[questions]") {
  CHECK(q::summaryKindOf("rating") == q::SummaryKind::kRating);
  CHECK(q::summaryKindOf("image_choice") == q::SummaryKind::kChoice);
  CHECK(q::summaryKindOf("voice") == q::SummaryKind::kText);
  CHECK(q::summaryKindOf("email") == q::SummaryKind::kNone);
  CHECK(q::summaryKindOf("telepathy") == q::SummaryKind::kNone);
  CHECK(q::mediaOf("voice_text_fallback") == q::AnswerMedia::kRecording);
  CHECK(q::mediaOf("file_upload") == q::AnswerMedia::kFile);
  CHECK(q::mediaOf("telepathy") == q::AnswerMedia::kNone);
  CHECK(q::extraOf("rating") == q::AnswerExtra::kRatingDetails);
  CHECK(q::extraOf("image_choice") == q::AnswerExtra::kSelectedCard);
  CHECK(q::extraOf("telepathy") == q::AnswerExtra::kNone);
  CHECK(q::extraOf("nps") == q::AnswerExtra::kRatingDetails);
  CHECK(q::summaryKindOf("ranking") == q::SummaryKind::kRanking);
  CHECK(q::summaryKindOf("hidden_field") == q::SummaryKind::kValues);
  CHECK(q::mediaOf("signature") == q::AnswerMedia::kDrawing);
  CHECK(q::textFormOf("address") == q::TextForm::kParts);
  CHECK(q::findQuestionType("hidden_field")->display == q::Display::kNever);
  q::Question voice;
  voice.response_type = "voice";
  CHECK(q::isEvaluated(voice));
  voice.configuration["enable_ai_evaluation"] = false;
  CHECK_FALSE(q::isEvaluated(voice));
  q::Question text;
  text.response_type = "text";
  text.configuration["enable_ai_evaluation"] = false;  // not a key of text: it stays evaluated
  CHECK(q::isEvaluated(text));
  q::Question choice;
  choice.response_type = "multiple_choice";
  CHECK_FALSE(q::isEvaluated(choice));
}

TEST_CASE("question types: each is found by its name, and nothing else is", "[questions]") {
  for (const auto& type : q::questionTypes()) {
    INFO(type.name);
    CHECK(q::findQuestionType(type.name) == &type);
    CHECK(q::findQuestionType(std::string(type.name) + "s") == nullptr);
    CHECK(q::findQuestionType(type.name.substr(0, type.name.size() - 1)) == nullptr);
  }
  for (const char* name : {"", "Text", "TEXT", "voice ", "rating\n", "unknown_type"}) {
    INFO(name);
    CHECK(q::findQuestionType(name) == nullptr);
  }
}

TEST_CASE("question types: the texts of a stored value, parsed only when they must be",
          "[questions]") {
  auto texts = [](std::string_view type, std::string_view json) {
    std::vector<std::string> out;
    feedback::questions::forEachTextOfJson(type, json,
                                           [&](std::string_view t) { out.emplace_back(t); });
    return out;
  };
  using V = std::vector<std::string>;
  CHECK(texts("text", R"("Typed")") == V{"Typed"});
  CHECK(texts("text", R"("say \"hi\"")") == V{"say \"hi\""});
  CHECK(texts("multiple_choice", R"(["Forms","Voice"])") == V{"Forms", "Voice"});
  CHECK(texts("address", R"({"city":"London","country":"GB"})") == V{"London", "GB"});
  CHECK(texts("number", "7").empty());
  CHECK(texts("text", "").empty());
  // A type with no text is not parsed at all: not even JSON it could not read.
  CHECK(texts("number", "not json").empty());
  CHECK_THROWS(texts("text", "not json"));
}
