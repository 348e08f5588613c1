// The server's side of tests/shared/form_rules_cases.json; tests/e2e/form_rules_agreement.js
// checks the intake page's rules against the same cases: what a completed response keeps and
// each kept answer's question_text.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sstream>

#include "common/questions/form_rules.h"

namespace q = feedback::questions;

TEST_CASE("form rules agree with the shared cases", "[form_rules]") {
  std::ifstream in(std::string(SHARED_TEST_CASES) + "/form_rules_cases.json");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const auto document = boost::json::parse(text.str());
  for (const auto& item : document.at("cases").as_array()) {
    const auto& c = item.as_object();
    INFO(c.at("name").as_string().c_str());
    std::vector<q::Question> questions;
    for (const auto& entry : c.at("questions").as_array()) {
      const auto& spec = entry.as_object();
      q::Question question;
      question.field_key = std::string(spec.at("field_key").as_string());
      question.uuid = "uuid-" + question.field_key;
      question.response_type = std::string(spec.at("type").as_string());
      if (auto* configuration = spec.if_contains("configuration")) {
        question.configuration = configuration->as_object();
      }
      if (auto* prompt = spec.if_contains("prompt")) question.prompt = prompt->as_string();
      if (auto* condition = spec.if_contains("condition")) {
        question.condition = condition->as_object();
        // Leaves as the API stores them; groups as they are.
        if (!question.condition.contains("all") && !question.condition.contains("any")) {
          question.condition["show_if"] = "field_value";
        }
      }
      questions.push_back(std::move(question));
    }
    q::AnswerValues given;
    for (const auto& [key, value] : c.at("answers").as_object())
      given.emplace(std::string(key), value);
    boost::json::object kept;
    std::map<std::string, std::string> texts;
    for (const auto& answer : q::FormRules(questions).complete(given)) {
      kept[answer.question->field_key] = answer.value;
      texts[answer.question->field_key] = answer.question_text;
    }
    if (const auto* expected_texts = c.if_contains("question_texts")) {
      for (const auto& [key, text] : expected_texts->as_object()) {
        INFO(std::string(key));
        CHECK(texts[std::string(key)] == std::string(text.as_string()));
      }
    }
    // Numbers compare as numbers (8 and 8.0 alike).
    boost::json::object expected = c.at("kept").as_object();
    REQUIRE(kept.size() == expected.size());
    for (const auto& [key, value] : expected) {
      INFO(std::string(key));
      REQUIRE(kept.contains(key));
      const auto& got = kept.at(key);
      if (value.is_number() && got.is_number()) {
        CHECK(got.to_number<double>() == Approx(value.to_number<double>()));
      } else {
        CHECK(boost::json::serialize(got) == boost::json::serialize(value));
      }
    }
  }
}
