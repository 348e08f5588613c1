#include "common/questions/form_rules.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>

#include "common/core/errors.h"

namespace q = feedback::questions;
using feedback::ApiError;
using feedback::ErrorCode;

namespace {

q::Question question(const char* key, const char* type, const char* configuration = "{}",
                     const char* condition = "{}", bool required = false) {
  q::Question out;
  out.uuid = std::string("uuid-") + key;
  out.field_key = key;
  out.prompt = std::string("Prompt ") + key;
  out.response_type = type;
  out.configuration = boost::json::parse(configuration).as_object();
  out.condition = boost::json::parse(condition).as_object();
  out.required = required;
  return out;
}

q::AnswerValues answers(const char* json) {
  q::AnswerValues out;
  const boost::json::value parsed = boost::json::parse(json);
  for (const auto& [k, v] : parsed.as_object()) out.emplace(std::string(k), v);
  return out;
}

// The kept answers' values as JSON text; numbers written as compact decimals.
std::map<std::string, std::string> kept(const q::FormRules& form, const char* given) {
  std::map<std::string, std::string> out;
  for (const auto& a : form.complete(answers(given))) {
    std::string text;
    if (a.value.is_double()) {
      text = std::to_string(a.value.as_double());
      text.erase(text.find_last_not_of('0') + 1);
    } else {
      text = boost::json::serialize(a.value);
    }
    out[a.question->field_key] = text;
  }
  return out;
}

bool holds(const char* condition, const char* answer) {
  auto c = boost::json::parse(condition).as_object();
  if (std::string_view(answer) == "<none>") {
    return q::conditionHolds(c, [](std::string_view) { return nullptr; });
  }
  auto v = boost::json::parse(answer);
  return q::conditionHolds(c, [&v](std::string_view) { return &v; });
}

// The error code and detail keys of an exception thrown by `f`.
template <class F>
std::pair<ErrorCode, std::set<std::string>> failure(F f) {
  try {
    f();
  } catch (const ApiError& e) {
    std::set<std::string> keys;
    for (const auto& [k, _] : e.details()) keys.insert(k);
    return {e.code(), keys};
  }
  return {ErrorCode::kInternalError, {}};
}

}  // namespace

TEST_CASE("conditions: less_than compares numbers", "[questions]") {
  const char* c =
      R"({"show_if": "field_value", "field": "s", "operator": "less_than", "value": 7})";
  CHECK(holds(c, "3"));
  CHECK(holds(c, "6.9"));
  CHECK_FALSE(holds(c, "7"));
  CHECK_FALSE(holds(c, "9"));
  CHECK_FALSE(holds(c, R"("3")"));
  CHECK_FALSE(holds(c, "<none>"));
  CHECK_FALSE(holds(c, "null"));
}

TEST_CASE("conditions: equals compares numbers, text, lists and yes/no", "[questions]") {
  const char* five = R"({"field": "s", "operator": "equals", "value": 5})";
  CHECK(holds(five, "5"));
  CHECK(holds(five, "5.0"));
  CHECK_FALSE(holds(five, "6"));
  CHECK_FALSE(holds(five, R"("5")"));
  const char* green = R"({"field": "s", "operator": "equals", "value": "green"})";
  CHECK(holds(green, R"("green")"));
  CHECK_FALSE(holds(green, R"("Green")"));
  CHECK(holds(green, R"(["red", "green"])"));
  CHECK_FALSE(holds(green, R"(["red"])"));
  CHECK(holds(R"({"field": "s", "operator": "equals", "value": "yes"})", "true"));
  CHECK(holds(R"({"field": "s", "operator": "equals", "value": "FALSE"})", "false"));
  CHECK_FALSE(holds(R"({"field": "s", "operator": "equals", "value": "yes"})", "false"));
  CHECK_FALSE(holds(green, "<none>"));
}

TEST_CASE("conditions: contains looks for the keyword ignoring case", "[questions]") {
  const char* slow = R"({"field": "s", "operator": "contains", "value": "slow"})";
  CHECK(holds(slow, R"("Support was SLOW")"));
  CHECK_FALSE(holds(slow, R"("fast")"));
  CHECK(holds(slow, R"(["fast", "slowish"])"));
  CHECK_FALSE(holds(slow, "5"));
  CHECK_FALSE(holds(slow, "<none>"));
  CHECK(holds("{}", "<none>"));
}

TEST_CASE("form rules: hidden questions are never required and their answers are dropped",
          "[questions]") {
  q::FormRules form(
      {question("score", "number", R"({"min": 0, "max": 10})"),
       question("why", "text", "{}", R"({"field": "score", "operator": "less_than", "value": 7})",
                true),
       question("more", "text", "{}",
                R"({"field": "why", "operator": "contains", "value": "slow"})", true)});
  // Hidden: not required, answer dropped.
  CHECK(kept(form, R"({"score": 9, "why": "dropped"})") ==
        std::map<std::string, std::string>{{"score", "9"}});
  // Visible and required.
  auto missing = failure([&] { form.complete(answers(R"({"score": 3})")); });
  CHECK(missing.first == ErrorCode::kRequiredAnswerMissing);
  CHECK(missing.second == std::set<std::string>{"why"});
  // A chain: "more" tests "why", which is hidden, so "more" is hidden too.
  CHECK(kept(form, R"({"score": 8, "why": "slow", "more": "x"})").size() == 1);
  // The whole chain visible: both required.
  CHECK(failure([&] { form.complete(answers(R"({"score": 1, "why": "too slow"})")); }).second ==
        std::set<std::string>{"more"});
  CHECK(kept(form, R"({"score": 1, "why": "too slow", "more": "details"})").size() == 3);
  // An unanswered score hides "why".
  CHECK(kept(form, "{}").empty());
}

TEST_CASE("form rules: blank answers do not satisfy required questions", "[questions]") {
  q::FormRules form({question("must", "text", "{}", "{}", true),
                     question("many", "multiple_choice",
                              R"({"options": ["a", "b"], "allow_multiple": true})", "{}", true)});
  auto result = failure([&] { form.complete(answers(R"({"must": "   ", "many": []})")); });
  CHECK(result.first == ErrorCode::kRequiredAnswerMissing);
  CHECK(result.second == std::set<std::string>{"must", "many"});
  CHECK(kept(form, R"({"must": "ok", "many": ["a"]})").size() == 2);
}

TEST_CASE("form rules: calculated values are computed, null when they cannot be", "[questions]") {
  q::FormRules form({question("a", "number"), question("b", "number"),
                     question("ratio", "calculated", R"({"formula": "a / b"})"),
                     question("double_ratio", "calculated", R"({"formula": "ratio * 2"})"),
                     question("note", "help_block", R"({"content": "Thanks"})", "{}", true)});
  auto values = kept(form, R"({"a": 3, "b": 2})");
  CHECK(values["ratio"] == "1.5");
  CHECK(values["double_ratio"] == "3");
  CHECK(values.count("note") == 0);  // help_block keeps nothing, and is never required
  // Division by zero and a missing operand give null, never an error.
  CHECK(kept(form, R"({"a": 3, "b": 0})")["ratio"] == "null");
  CHECK(kept(form, R"({"a": 3, "b": 0})")["double_ratio"] == "null");
  CHECK(kept(form, R"({"a": 3})")["ratio"] == "null");
  CHECK(kept(form, "{}")["ratio"] == "null");
}

TEST_CASE("form rules: formulas read only visible answers and survive cycles", "[questions]") {
  q::FormRules form(
      {question("gate", "yes_no"),
       question("x", "number", "{}", R"({"field": "gate", "operator": "equals", "value": "yes"})"),
       question("y", "calculated", R"({"formula": "x + 1"})"),
       question("c1", "calculated", R"({"formula": "c2 + 1"})"),
       question("c2", "calculated", R"({"formula": "c1 + 1"})")});
  CHECK(kept(form, R"({"gate": true, "x": 4})")["y"] == "5");
  CHECK(kept(form, R"({"gate": false, "x": 4})")["y"] == "null");
  CHECK(kept(form, "{}")["c1"] == "null");
}

TEST_CASE("form rules: a condition may test a calculated value", "[questions]") {
  q::FormRules form(
      {question("n", "number"), question("twice", "calculated", R"({"formula": "n * 2"})"),
       question("big", "text", "{}", R"({"field": "twice", "operator": "less_than", "value": 10})",
                true)});
  CHECK(failure([&] { form.complete(answers(R"({"n": 3})")); }).first ==
        ErrorCode::kRequiredAnswerMissing);
  CHECK(kept(form, R"({"n": 30})").size() == 2);
}

TEST_CASE("form rules: every bad value is reported by field_key", "[questions]") {
  q::FormRules form({question("n", "number", R"({"max": 5})"), question("t", "text"),
                     question("c", "calculated", R"({"formula": "n"})"),
                     question("h", "help_block")});
  CHECK_NOTHROW(form.complete(answers(R"({"n": 4, "t": "ok", "c": null})")));
  // Names that are no question, questions that take no value, values that break their
  // question's rule: all at once.
  auto bad =
      failure([&] { form.complete(answers(R"({"n": 6, "t": 1, "c": 4, "h": "x", "ghost": 1})")); });
  CHECK(bad.first == ErrorCode::kInvalidAnswer);
  CHECK(bad.second == std::set<std::string>{"n", "t", "c", "h", "ghost"});
}

TEST_CASE("form rules: a hidden question's value is dropped, not judged", "[questions]") {
  q::FormRules form({question("score", "number"),
                     question("contact", "email", "{}",
                              R"({"field": "score", "operator": "less_than", "value": 7})")});
  CHECK(kept(form, R"({"score": 9, "contact": "not an email"})").size() == 1);
  CHECK(failure([&] {
          form.complete(answers(R"({"score": 3, "contact": "not an email"})"));
        }).second == std::set<std::string>{"contact"});
}

TEST_CASE("form rules: a contact_info of blank parts is no answer", "[questions]") {
  q::Question contact;
  contact.uuid = "u1";
  contact.field_key = "contact";
  contact.response_type = "contact_info";
  contact.required = true;
  q::FormRules form({contact});
  auto missing = failure([&] { form.complete(answers(R"({"contact": {"email": "  "}})")); });
  CHECK(missing.first == ErrorCode::kRequiredAnswerMissing);
  CHECK(missing.second == std::set<std::string>{"contact"});
  contact.required = false;
  q::FormRules optional({contact});
  CHECK(optional.complete(answers(R"({"contact": {"email": ""}})")).empty());
}
