#include "common/core/json_writer.h"

#include <boost/json/parse.hpp>

#include "common/core/json_text.h"
#include "common/core/text.h"

#include <catch2/catch.hpp>

TEST_CASE("json writer: nested objects, arrays, escapes and raw fragments", "[json]") {
  std::string out;
  feedback::JsonWriter json(out);
  json.beginObject()
      .field("name", std::string_view("a \"quoted\"\nline\x01"))
      .field("count", 3)
      .field("ok", true)
      .key("none")
      .null()
      .key("list")
      .beginArray()
      .integer(1)
      .beginObject()
      .field("x", std::string_view("y"))
      .endObject()
      .raw("{\"k\":[1,2]}")
      .endArray()
      .key("empty")
      .beginArray()
      .endArray()
      .endObject();
  CHECK(out ==
        "{\"name\":\"a \\\"quoted\\\"\\nline\\u0001\",\"count\":3,\"ok\":true,\"none\":null,"
        "\"list\":[1,{\"x\":\"y\"},{\"k\":[1,2]}],\"empty\":[]}");
}

TEST_CASE("json writer: UTF-8 passes through unchanged", "[json]") {
  std::string out;
  feedback::JsonWriter(out).string("Détail ☕ 日本語");
  CHECK(out == "\"Détail ☕ 日本語\"");
}

TEST_CASE("json writer: doubles in their shortest form, non-finite as null", "[json]") {
  std::string out;
  feedback::JsonWriter(out)
      .beginArray()
      .number(1.5)
      .number(0.1)
      .number(8)
      .number(-2.25e-7)
      .number(std::nan(""))
      .number(INFINITY)
      .endArray();
  CHECK(out == "[1.5,0.1,8,-2.25e-07,null,null]");
}

TEST_CASE("json text: values written back compactly, numbers as people write them", "[json]") {
  auto text = [](const char* json) { return feedback::jsonText(boost::json::parse(json)); };
  CHECK(text(R"({"a": [1, 2.5, -0.1, 1e300, 18446744073709551615], "b": null, "c": "\u0000x"})") ==
        R"({"a":[1,2.5,-0.1,1e+300,18446744073709551615],"b":null,"c":"\u0000x"})");
  CHECK(text("true") == "true");
  CHECK(text("8.0") == "8");
  // Negative zero is written 0: "-0" would read back as the integer 0 and then write "0".
  CHECK(text("-0.0") == "0");
  CHECK(text(text("-0.0").c_str()) == text("-0.0"));
}

// Strings from outside that were never checked (a Host header, a file name) must not make the
// document unreadable: each byte that starts no well-formed UTF-8 sequence becomes U+FFFD.
TEST_CASE("json writer: malformed UTF-8 is written as U+FFFD", "[json]") {
  std::string out;
  feedback::JsonWriter(out).string(
      "a\xff"
      "b\xc3"
      "\xe2\x82"
      "c\xed\xa0\x80"
      "é");
  CHECK(out == "\"a\\ufffdb\\ufffd\\ufffd\\ufffdc\\ufffd\\ufffd\\ufffdé\"");
  boost::system::error_code ec;
  boost::json::parse(out, ec);
  CHECK_FALSE(ec);
}

TEST_CASE("text: well-formed UTF-8", "[text]") {
  CHECK(feedback::isValidUtf8("plain, Détail ☕ 日本語 𝄞"));
  for (std::string_view bad :
       {"\xff", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc3", "\x80"}) {
    INFO(bad.size());
    CHECK_FALSE(feedback::isValidUtf8(bad));
  }
}
