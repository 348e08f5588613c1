#include "common/questions/conditions.h"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "common/core/errors.h"

namespace q = feedback::questions;
using feedback::ApiError;
using feedback::ErrorCode;

namespace {

q::Question question(const char* key, const char* type, const char* configuration = "{}") {
  q::Question out;
  out.field_key = key;
  out.response_type = type;
  out.configuration = boost::json::parse(configuration).as_object();
  return out;
}

// The earlier questions every case below may name.
struct Earlier {
  std::vector<q::Question> questions = {
      question("score", "number"),
      question("comment", "text"),
      question("when", "date"),
      question("slot", "time"),
      question("at", "datetime"),
      question("grid", "matrix",
               R"({"rows": [{"id": "speed", "label": "S"}], "columns": [{"id": "ok", "label":
               "O"}, {"id": "bad", "label": "B"}]})"),
      question("contact", "contact_info"),
      question("trip", "date_range"),
      question("span", "slider", R"({"range": true})"),
      question("level", "slider"),
      question("tops", "multiple_choice", R"({"options": ["a", "b"], "allow_multiple": true})"),
  };
  q::QuestionsByKey byKey() const {
    q::QuestionsByKey out;
    for (const auto& question : questions) out.emplace(question.field_key, &question);
    return out;
  }
};

// The details path of the INVALID_CONDITION `json` gets; nullopt when it is valid.
std::optional<std::string> error(const std::string& json) {
  Earlier earlier;
  try {
    q::validateCondition(boost::json::parse(json).as_object(), "questions[1].condition",
                         earlier.byKey());
  } catch (const ApiError& e) {
    CHECK(e.code() == ErrorCode::kInvalidCondition);
    return e.details().begin()->first;
  }
  return std::nullopt;
}

std::string leaf(const std::string& field, const std::string& op, const std::string& value) {
  return R"({"field": ")" + field + R"(", "operator": ")" + op + "\"" +
         (value.empty() ? "" : ", \"value\": " + value) + "}";
}

std::string nested(int depth, const std::string& inner) {
  std::string out = inner;
  for (int i = 0; i < depth; ++i)
    out = std::string(R"({")") + (i % 2 ? "any" : "all") + R"(": [)" + out + "]}";
  return out;
}

}  // namespace

TEST_CASE("conditions: leaves of every operator, checked", "[questions]") {
  CHECK_FALSE(error("{}"));
  CHECK_FALSE(error(
      R"({"show_if": "field_value", "field": "score", "operator": "less_than", "value": 7})"));
  for (const char* op : {"greater_than", "less_than_or_equal", "greater_than_or_equal"}) {
    INFO(op);
    CHECK_FALSE(error(leaf("score", op, "3")));
    CHECK(error(leaf("score", op, "\"3\"")) == "questions[1].condition.value");
  }
  CHECK_FALSE(error(leaf("comment", "contains", "\"slow\"")));
  CHECK_FALSE(error(leaf("comment", "equals", "\"yes\"")));
  CHECK_FALSE(error(leaf("score", "not_equals", "3")));
  for (const char* op : {"not_contains", "starts_with", "ends_with"}) {
    INFO(op);
    CHECK_FALSE(error(leaf("comment", op, "\"x\"")));
    CHECK(error(leaf("comment", op, "3")) == "questions[1].condition.value");
  }
  for (const char* op : {"includes_any", "includes_all", "excludes_all"}) {
    INFO(op);
    CHECK_FALSE(error(leaf("tops", op, R"(["a", 2])")));
    CHECK(error(leaf("tops", op, "\"a\"")) == "questions[1].condition.value");
    CHECK(error(leaf("tops", op, "[]")) == "questions[1].condition.value");
    CHECK(error(leaf("tops", op, "[[1]]")) == "questions[1].condition.value");
  }
  for (const char* op : {"is_answered", "is_not_answered"}) {
    INFO(op);
    CHECK_FALSE(error(leaf("comment", op, "")));
    CHECK(error(leaf("comment", op, "\"x\"")) == "questions[1].condition.value");
  }
  CHECK(error(leaf("later", "equals", "1")) == "questions[1].condition.field");
  CHECK(error(R"({"operator": "equals", "value": 1})") == "questions[1].condition.field");
  CHECK(error(leaf("score", "approximately", "1")) == "questions[1].condition.operator");
  CHECK(error(leaf("score", "equals", "")) == "questions[1].condition.value");
  CHECK(error(leaf("score", "equals", "[1]")) == "questions[1].condition.value");
  CHECK(error(leaf("comment", "contains", "3")) == "questions[1].condition.value");
  CHECK(error(R"({"show_if": "always", "field": "score", "operator": "equals", "value": 1})") ==
        "questions[1].condition.show_if");
  CHECK(error(R"({"field": "score", "operator": "equals", "value": 1, "negate": true})") ==
        "questions[1].condition.negate");
}

TEST_CASE("conditions: dates, times and datetimes compare as such", "[questions]") {
  CHECK_FALSE(error(leaf("when", "greater_than", "\"2024-01-31\"")));
  CHECK(error(leaf("when", "greater_than", "\"2024-02-30\"")) == "questions[1].condition.value");
  CHECK(error(leaf("when", "greater_than", "5")) == "questions[1].condition.value");
  CHECK_FALSE(error(leaf("slot", "less_than", "\"09:30\"")));
  CHECK(error(leaf("slot", "less_than", "\"9:30\"")) == "questions[1].condition.value");
  CHECK_FALSE(error(leaf("at", "less_than", "\"2024-03-10T12:30:00+02:00\"")));
  CHECK(error(leaf("at", "less_than", "\"2024-03-10\"")) == "questions[1].condition.value");
  CHECK_FALSE(error(leaf("trip.start", "greater_than_or_equal", "\"2024-07-01\"")));

  auto holds = [](const char* op, const char* value, const char* answer) {
    auto l = boost::json::parse(leaf("x", op, value)).as_object();
    auto a = boost::json::parse(answer);
    return q::leafHolds(l, &a);
  };
  CHECK(holds("greater_than", "\"2024-01-31\"", "\"2024-02-01\""));
  CHECK_FALSE(holds("greater_than", "\"2024-02-01\"", "\"2024-02-01\""));
  CHECK(holds("greater_than_or_equal", "\"2024-02-01\"", "\"2024-02-01\""));
  CHECK(holds("less_than", "\"10:00\"", "\"09:59\""));
  // 12:30 at +02:00 is 10:30 UTC, as the answer is stored.
  CHECK(holds("equals", "\"2024-03-10T10:30:00.000000Z\"", "\"2024-03-10T10:30:00.000000Z\""));
  CHECK(holds("less_than_or_equal", "\"2024-03-10T12:30:00+02:00\"",
              "\"2024-03-10T10:30:00.000000Z\""));
  CHECK_FALSE(
      holds("less_than", "\"2024-03-10T12:30:00+02:00\"", "\"2024-03-10T10:30:00.000000Z\""));
}

TEST_CASE("conditions: dotted fields name parts of object answers", "[questions]") {
  CHECK_FALSE(error(leaf("grid.speed", "equals", "\"ok\"")));
  CHECK(error(leaf("grid.price", "equals", "\"ok\"")) == "questions[1].condition.field");
  CHECK_FALSE(error(leaf("contact.email", "ends_with", "\"@example.com\"")));
  CHECK(error(leaf("contact.fax", "is_answered", "")) == "questions[1].condition.field");
  CHECK_FALSE(error(leaf("trip.end", "is_answered", "")));
  CHECK_FALSE(error(leaf("span.low", "greater_than", "10")));
  CHECK(error(leaf("level.low", "greater_than", "10")) == "questions[1].condition.field");
  CHECK(error(leaf("comment.part", "is_answered", "")) == "questions[1].condition.field");

  const boost::json::value contact = boost::json::parse(R"({"email": "a@b.co"})");
  CHECK(q::answerPart(contact, "email")->as_string() == "a@b.co");
  CHECK(q::answerPart(contact, "phone") == nullptr);
  const boost::json::value span = boost::json::parse("[10, 50]");
  CHECK(q::answerPart(span, "high")->as_int64() == 50);
  CHECK(q::answerPart(span, "middle") == nullptr);
}

TEST_CASE("conditions: groups, their size, depth and leaves", "[questions]") {
  const std::string a = leaf("score", "greater_than", "5");
  CHECK_FALSE(error(R"({"all": [)" + a + "]}"));
  CHECK_FALSE(error(R"({"any": [)" + a + "," + a + "]}"));
  CHECK_FALSE(error(nested(3, a)));
  CHECK(error(nested(4, a)) == "questions[1].condition.any[0].all[0].any[0].all");
  CHECK(error(R"({"all": []})") == "questions[1].condition.all");
  CHECK(error(R"({"all": )" + a + "}") == "questions[1].condition.all");
  CHECK(error(R"({"all": [)" + a + R"(], "any": [)" + a + "]}") == "questions[1].condition");
  CHECK(error(R"({"any": [)" + a + R"(, {"field": "score", "operator": "nope", "value": 1}]})") ==
        "questions[1].condition.any[1].operator");
  std::string twenty_one = R"({"all": [)";
  for (int i = 0; i < 21; ++i) twenty_one += (i ? "," : "") + a;
  CHECK(error(twenty_one + "]}") == "questions[1].condition.all");
  // 3 groups of 20 leaves: past the 50 leaves of a condition.
  std::string twenty = "[";
  for (int i = 0; i < 20; ++i) twenty += (i ? "," : "") + a;
  twenty += "]";
  const std::string many = R"({"any": [{"all": )" + twenty + R"(}, {"all": )" + twenty +
                           R"(}, {"all": )" + twenty + "}]}";
  CHECK(error(many) == "questions[1].condition.any[2].all[10]");
}

TEST_CASE("conditions: groups evaluate all and any over their members", "[questions]") {
  const auto condition =
      boost::json::parse(
          R"({"any": [{"all": [{"field": "n", "operator": "greater_than", "value": 5},
                                          {"field": "t", "operator": "starts_with", "value": "great"}]},
                                 {"field": "n", "operator": "equals", "value": 0}]})")
          .as_object();
  auto holds = [&condition](const char* n, const char* t) {
    const auto nv = boost::json::parse(n), tv = boost::json::parse(t);
    return q::conditionHolds(condition, [&](std::string_view field) -> const boost::json::value* {
      const auto& v = field == "n" ? nv : tv;
      return v.is_null() ? nullptr : &v;
    });
  };
  CHECK(holds("9", R"("Great stuff")"));
  CHECK_FALSE(holds("9", R"("fine")"));
  CHECK(holds("0", R"("fine")"));
  CHECK_FALSE(holds("null", "null"));
  CHECK(q::conditionHolds(boost::json::object(), [](std::string_view) { return nullptr; }));
}

TEST_CASE("conditions: leaves on unanswered questions", "[questions]") {
  for (const auto& op : q::kOperators) {
    INFO(op.name);
    auto l = boost::json::parse(leaf("x", std::string(op.name),
                                     op.operand == q::Operand::kNone   ? ""
                                     : op.operand == q::Operand::kList ? "[1]"
                                                                       : "\"1\""))
                 .as_object();
    CHECK(q::leafHolds(l, nullptr) == (op.name == "is_not_answered"));
  }
  auto l = [](const char* op, const char* value) {
    return boost::json::parse(leaf("x", op, value)).as_object();
  };
  const auto blank = boost::json::parse(R"("  ")");
  CHECK(q::leafHolds(l("is_not_answered", ""), &blank));
  const auto tops = boost::json::parse(R"(["a", "b"])");
  CHECK(q::leafHolds(l("includes_all", R"(["a", "b"])"), &tops));
  CHECK_FALSE(q::leafHolds(l("includes_all", R"(["a", "c"])"), &tops));
  CHECK(q::leafHolds(l("includes_any", R"(["c", "b"])"), &tops));
  CHECK(q::leafHolds(l("excludes_all", R"(["c", "d"])"), &tops));
  CHECK_FALSE(q::leafHolds(l("excludes_all", R"(["c", "a"])"), &tops));
  CHECK(q::leafHolds(l("not_equals", R"("c")"), &tops));
  CHECK_FALSE(q::leafHolds(l("not_equals", R"("a")"), &tops));
  const auto text = boost::json::parse(R"("Found a Bug")");
  CHECK(q::leafHolds(l("starts_with", R"("found")"), &text));
  CHECK(q::leafHolds(l("ends_with", R"("BUG")"), &text));
  CHECK(q::leafHolds(l("not_contains", R"("crash")"), &text));
  CHECK_FALSE(q::leafHolds(l("not_contains", R"("bug")"), &text));
}
