#include "common/core/json_text.h"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

using feedback::jsonText;
using feedback::unescapedJsonString;

TEST_CASE("json text: a string without escapes is read without a parse", "[core]") {
  CHECK(unescapedJsonString(R"("Typed instead of spoken")") == "Typed instead of spoken");
  CHECK(unescapedJsonString(R"("")") == "");
  CHECK(unescapedJsonString(R"("Grüße")") == "Grüße");
  // Escapes, other values and what is no single string take a parse.
  CHECK_FALSE(unescapedJsonString(R"("say \"hi\"")"));
  CHECK_FALSE(unescapedJsonString(R"("a\nb")"));
  CHECK_FALSE(unescapedJsonString(R"("a" "b")"));
  CHECK_FALSE(unescapedJsonString(R"(["a"])"));
  CHECK_FALSE(unescapedJsonString("7"));
  CHECK_FALSE(unescapedJsonString("\""));
  CHECK_FALSE(unescapedJsonString(""));
}

TEST_CASE("json text: what it reads is what a parse reads, for strings this process wrote",
          "[core]") {
  for (const char* text :
       {"plain", "with \"quotes\"", "tab\there", "back\\slash", "é ü ß", "", " spaced "}) {
    const std::string json = jsonText(boost::json::string(text));
    const auto read = unescapedJsonString(json);
    INFO(json);
    if (read) CHECK(*read == boost::json::parse(json).as_string());
  }
}

TEST_CASE("json text: the string a value holds, escapes read", "[core]") {
  using feedback::jsonStringValue;
  CHECK(jsonStringValue(R"("Typed")") == "Typed");
  CHECK(jsonStringValue(R"("say \"hi\"\n")") == "say \"hi\"\n");
  CHECK(jsonStringValue(R"("")") == "");
  CHECK_FALSE(jsonStringValue("7"));
  CHECK_FALSE(jsonStringValue(R"(["a"])"));
  CHECK_FALSE(jsonStringValue(""));
  CHECK_FALSE(jsonStringValue(R"("unterminated \")"));
}
