#include "common/questions/answer_rules.h"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

#include "common/questions/form_rules.h"
#include "common/questions/question_types.h"

namespace q = feedback::questions;

namespace {

q::Question question(const char* type, const char* configuration = "{}") {
  q::Question out;
  out.uuid = "00000000-0000-4000-8000-000000000001";
  out.field_key = "k";
  out.prompt = "Prompt";
  out.response_type = type;
  out.configuration = boost::json::parse(configuration).as_object();
  return out;
}

bool valid(const q::Question& question, const char* value_json) {
  auto value = boost::json::parse(value_json);
  return !q::FormRules::answerProblem(question, value);
}

}  // namespace

TEST_CASE("question types: the table holds the 32 types", "[questions]") {
  CHECK(q::questionTypes().size() == 32);
  CHECK(q::findQuestionType(q::kDefaultQuestionType) != nullptr);
  CHECK(q::findQuestionType("telepathy") == nullptr);
  CHECK(q::findQuestionType("") == nullptr);
  for (const auto& type : q::questionTypes()) {
    INFO(type.name);
    CHECK((type.source == q::AnswerSource::kRespondent) == (type.answer != nullptr));
  }
}

TEST_CASE("question types: settings fall back to the table's defaults", "[questions]") {
  auto rating = question("rating");
  REQUIRE(q::setting(rating, "max_value"));
  CHECK(q::setting(rating, "max_value")->as_int64() == 5);
  CHECK(q::setting(rating, "scale_type")->as_string() == "stars");
  CHECK(q::setting(rating, "nonsense") == nullptr);
  CHECK(q::setting(question("rating", R"({"max_value": 7})"), "max_value")->as_int64() == 7);
}

TEST_CASE("answer rules: text", "[questions]") {
  auto text = question("text");
  CHECK(valid(text, R"("plain words")"));
  CHECK(valid(text, R"("")"));
  CHECK_FALSE(valid(text, "123"));
  CHECK_FALSE(valid(text, R"(["a"])"));
  CHECK_FALSE(valid(text, "true"));
  CHECK(valid(text, ("\"" + std::string(10000, 'a') + "\"").c_str()));
  CHECK_FALSE(valid(text, ("\"" + std::string(10001, 'a') + "\"").c_str()));
  // Characters, not bytes: 10,000 two-byte characters fit.
  std::string accents;
  for (int i = 0; i < 10000; ++i) accents += "\xC3\xA9";
  CHECK(valid(text, ("\"" + accents + "\"").c_str()));
}

TEST_CASE("answer rules: voice takes typed text only when it falls back to text", "[questions]") {
  auto voice = question("voice", R"({"max_duration": 60})");
  CHECK(valid(voice, R"("I typed this")"));
  CHECK_FALSE(valid(voice, "42"));
  voice.fallback_to_text = false;
  CHECK_FALSE(valid(voice, R"("I typed this")"));

  auto fallback = question("voice_text_fallback", R"({"max_characters": 5})");
  CHECK(valid(fallback, R"("12345")"));
  CHECK_FALSE(valid(fallback, R"("123456")"));
}

TEST_CASE("answer rules: voice duration against max_duration", "[questions]") {
  auto voice = question("voice", R"({"max_duration": 60})");
  CHECK_FALSE(q::durationProblem(voice, 59.9));
  CHECK_FALSE(q::durationProblem(voice, 60));
  CHECK(q::durationProblem(voice, 60.5));
  CHECK(q::durationProblem(voice, -1));
  CHECK_FALSE(q::durationProblem(question("voice"), 3000));  // no limit configured
}

TEST_CASE("answer rules: an Opus recording may hold max_duration at 64 kbit/s", "[questions]") {
  constexpr int64_t kMiB = 1024 * 1024;
  // WAV: 10 MiB whatever the question says.
  CHECK(q::maxRecordingBytes(question("voice", R"({"max_duration": 3600})"), false) == 10 * kMiB);
  // Opus: 8,000 bytes a second, at least a WAV's limit, at most 32 MiB.
  CHECK(q::maxRecordingBytes(question("voice", R"({"max_duration": 3000})"), true) == 24000000);
  CHECK(q::maxRecordingBytes(question("voice", R"({"max_duration": 600})"), true) == 10 * kMiB);
  CHECK(q::maxRecordingBytes(question("voice", R"({"max_duration": 3600})"), true) == 28800000);
  CHECK(q::maxRecordingBytes(question("voice"), true) == 28800000);  // an hour when unset
}

TEST_CASE("answer rules: multiple_choice", "[questions]") {
  auto single = question("multiple_choice", R"({"options": ["red", "green", "blue"]})");
  CHECK(valid(single, R"("green")"));
  CHECK_FALSE(valid(single, R"("purple")"));
  CHECK_FALSE(valid(single, R"(["red"])"));
  CHECK_FALSE(valid(single, "1"));
  auto multi = question("multiple_choice",
                        R"({"options": ["red", "green", "blue"], "allow_multiple": true})");
  CHECK(valid(multi, R"(["red", "blue"])"));
  CHECK(valid(multi, R"("red")"));
  CHECK(valid(multi, "[]"));  // nothing chosen (no answer to a required question)
  CHECK_FALSE(valid(multi, "{}"));
  CHECK_FALSE(valid(multi, R"(["red", "red"])"));
  CHECK_FALSE(valid(multi, R"(["red", "pink"])"));
  CHECK_FALSE(valid(multi, R"(["red", 1])"));
}

TEST_CASE("answer rules: number within min/max and on step", "[questions]") {
  auto number = question("number", R"({"min": 0, "max": 10, "step": 1})");
  for (const char* v : {"0", "5", "10", "5.0"}) {
    INFO(v);
    CHECK(valid(number, v));
  }
  for (const char* v : {"11", "-1", "2.5", R"("5")", "true"}) {
    INFO(v);
    CHECK_FALSE(valid(number, v));
  }
  auto halves = question("number", R"({"min": 1, "step": 0.5})");
  CHECK(valid(halves, "1.5"));
  CHECK(valid(halves, "100"));
  CHECK_FALSE(valid(halves, "1.25"));
  CHECK_FALSE(valid(halves, "0.5"));
  auto tenths = question("number", R"({"step": 0.1})");
  CHECK(valid(tenths, "0.3"));  // not rejected by binary rounding
  CHECK(valid(tenths, "123456.7"));
  CHECK_FALSE(valid(tenths, "0.35"));
  auto whole = question("number", R"({"min": 0, "step": 1})");
  CHECK_FALSE(valid(whole, "1500000000.5"));  // far from the start, still not on a step
  CHECK(valid(whole, "1500000000"));
  auto cents = question("number", R"({"step": 0.01})");
  CHECK_FALSE(valid(cents, "10000000.005"));
  CHECK(valid(cents, "10000000.01"));
  CHECK(valid(question("number"), "-12345.678"));
}

TEST_CASE("answer rules: rating ranges by scale", "[questions]") {
  auto stars = question("rating");
  CHECK(valid(stars, "1"));
  CHECK(valid(stars, "5"));
  CHECK(valid(stars, "4.0"));
  CHECK_FALSE(valid(stars, "0"));
  CHECK_FALSE(valid(stars, "6"));
  CHECK_FALSE(valid(stars, "4.5"));
  CHECK_FALSE(valid(stars, R"("4")"));
  auto nps = question("rating", R"({"scale_type": "nps"})");
  CHECK(valid(nps, "0"));
  CHECK(valid(nps, "10"));
  CHECK_FALSE(valid(nps, "11"));
  auto numbers = question("rating", R"({"scale_type": "numbers", "max_value": 7})");
  CHECK(valid(numbers, "7"));
  CHECK_FALSE(valid(numbers, "8"));

  auto details = q::ratingDetails(nps, boost::json::parse("9"));
  CHECK(details.value == 9);
  CHECK(details.max_value == 10);
  CHECK(details.scale_type == "nps");
  auto default_details = q::ratingDetails(stars, boost::json::parse("4"));
  CHECK(default_details.max_value == 5);
  CHECK(default_details.scale_type == "stars");
}

TEST_CASE("answer rules: image_choice takes a card id", "[questions]") {
  auto cards = question("image_choice", R"({"cards": [
      {"id": "c1", "label": "Cat", "media_url": "https://e.com/c.png", "media_type": "image"},
      {"id": "c2", "label": "Dog", "media_url": "https://e.com/d.mp4", "media_type": "video"}]})");
  CHECK(valid(cards, R"("c2")"));
  CHECK_FALSE(valid(cards, R"("c3")"));
  CHECK_FALSE(valid(cards, R"("Dog")"));
  CHECK_FALSE(valid(cards, "2"));
  auto card = q::selectedCard(cards, boost::json::parse(R"("c2")"));
  REQUIRE(card);
  CHECK(card->card_id == "c2");
  CHECK(card->label == "Dog");
  CHECK(card->media_url == "https://e.com/d.mp4");
  CHECK(card->media_type == "video");
}

TEST_CASE("answer rules: email", "[questions]") {
  auto email = question("email");
  for (const char* v : {R"("eve@example.com")", R"("first.last+tag@sub.example.co.uk")",
                        R"("o'neil@example.org")"}) {
    INFO(v);
    CHECK(valid(email, v));
  }
  for (const char* v : {R"("not-an-email")", R"("a@")", R"("@example.com")", R"("a b@example.com")",
                        "5", R"("a@b@example.com")", R"("a@example")", R"("a@-example.com")",
                        R"("a..b@example.com")", R"("a@example..com")"}) {
    INFO(v);
    CHECK_FALSE(valid(email, v));
  }
  CHECK_FALSE(q::isEmailAddress(std::string(250, 'a') + "@example.com"));
}

TEST_CASE("answer rules: date is a real YYYY-MM-DD day", "[questions]") {
  auto date = question("date");
  CHECK(valid(date, R"("2024-02-29")"));
  CHECK(valid(date, R"("1999-12-31")"));
  CHECK_FALSE(valid(date, R"("2023-02-29")"));
  CHECK_FALSE(valid(date, R"("1900-02-29")"));
  CHECK(valid(date, R"("2000-02-29")"));
  CHECK_FALSE(valid(date, R"("2024-13-01")"));
  CHECK_FALSE(valid(date, R"("2024-04-31")"));
  CHECK_FALSE(valid(date, R"("2024-4-1")"));
  CHECK_FALSE(valid(date, R"("2024-04-01T00:00:00Z")"));
  CHECK_FALSE(valid(date, "20240401"));
}

TEST_CASE("answer rules: yes_no is a boolean", "[questions]") {
  auto yes_no = question("yes_no");
  CHECK(valid(yes_no, "true"));
  CHECK(valid(yes_no, "false"));
  CHECK_FALSE(valid(yes_no, R"("yes")"));
  CHECK_FALSE(valid(yes_no, "1"));
}

TEST_CASE("answer rules: file_upload metadata", "[questions]") {
  auto file = question("file_upload",
                       R"({"allowed_types": ["image/png", "application/pdf", "video/*"],
                           "max_size_mb": 5})");
  const char* good = R"({"file_name": "a.pdf", "content_type": "application/pdf",
                         "size_bytes": 1000, "url": "https://files.example.com/a.pdf"})";
  CHECK(valid(file, good));
  CHECK(valid(file, R"({"file_name": "clip.webm", "content_type": "video/webm",
                       "size_bytes": 5242880, "url": "https://e.com/c"})"));
  CHECK_FALSE(valid(file, R"({"file_name": "a.exe", "content_type": "application/x-msdownload",
                             "size_bytes": 10, "url": "https://e.com/a"})"));
  CHECK_FALSE(valid(file, R"({"file_name": "big.pdf", "content_type": "application/pdf",
                             "size_bytes": 5242881, "url": "https://e.com/a"})"));
  CHECK_FALSE(valid(file, R"({"file_name": "", "content_type": "application/pdf",
                             "size_bytes": 1, "url": "https://e.com/a"})"));
  CHECK_FALSE(valid(file, R"({"file_name": "a.pdf", "content_type": "application/pdf",
                             "size_bytes": 1, "url": "ftp://e.com/a"})"));
  CHECK_FALSE(valid(file, R"({"file_name": "a.pdf", "content_type": "application/pdf",
                             "size_bytes": 1, "url": "https://e.com/a", "extra": 1})"));
  CHECK_FALSE(valid(file, R"("a.pdf")"));
  // Without a configured limit the platform's 25 MiB applies; every type is allowed.
  auto open = question("file_upload");
  CHECK(valid(open, R"({"file_name": "x", "content_type": "text/plain",
                       "size_bytes": 26214400, "url": "https://e.com/x"})"));
  CHECK_FALSE(valid(open, R"({"file_name": "x", "content_type": "text/plain",
                             "size_bytes": 26214401, "url": "https://e.com/x"})"));
  CHECK(q::isAllowedFileType(file, "Image/PNG"));
  CHECK(q::isAllowedFileType(file, "application/pdf; charset=binary"));
  CHECK_FALSE(q::isAllowedFileType(file, "image/jpeg"));
}

TEST_CASE("answer rules: calculated and help_block accept no value", "[questions]") {
  CHECK_FALSE(valid(question("calculated", R"({"formula": "a * 2"})"), "8"));
  CHECK_FALSE(valid(question("help_block", R"({"content": "Hi"})"), R"("read it")"));
}
