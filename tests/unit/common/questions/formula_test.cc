#include "common/questions/formula.h"

#include <catch2/catch.hpp>
#include <map>

using feedback::questions::Formula;

TEST_CASE("formula: precedence, parentheses, unary minus and fields", "[formula]") {
  std::map<std::string, double> values{{"a", 3}, {"b", 4}};
  auto of = [&values](const std::string& k) -> std::optional<double> {
    auto it = values.find(k);
    return it == values.end() ? std::nullopt : std::optional(it->second);
  };
  auto eval = [&of](const char* text) {
    std::string error;
    auto f = Formula::parse(text, &error);
    REQUIRE(f);
    return f->evaluate(of);
  };
  CHECK(eval("1 + 2 * 3") == 7);
  CHECK(eval("(1 + 2) * 3") == 9);
  CHECK(eval("-a + b") == 1);
  CHECK(eval("a * b / 2") == 6);
  CHECK(eval("2 - -1") == 3);
  CHECK_FALSE(eval("a / 0"));
  CHECK_FALSE(eval("missing + 1"));
  std::string error;
  auto f = Formula::parse("nps_score * 2 + effort", &error);
  REQUIRE(f);
  CHECK(f->fields() == std::set<std::string>{"effort", "nps_score"});
}

TEST_CASE("formula: malformed input is refused with a reason", "[formula]") {
  for (const char* text :
       {"", "1 +", "(1", "1)", "a b", "2 ** 3", "1..2", "A + 1", "a; b",
        "((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))"}) {
    std::string error;
    INFO(text);
    CHECK_FALSE(Formula::parse(text, &error));
    CHECK_FALSE(error.empty());
  }
}

// A literal past the largest double read as infinity, which no calculated value (a JSON
// number) can hold; the formula fuzz target's invariant caught it.
TEST_CASE("formula: a number too large for a double is refused", "[formula]") {
  std::string error;
  CHECK_FALSE(feedback::questions::Formula::parse(std::string(400, '9'), &error));
  CHECK(error.find("number too large") == 0);
  CHECK(feedback::questions::Formula::parse(std::string(300, '9'), &error));
}
