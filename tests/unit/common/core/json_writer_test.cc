#include "common/core/json_writer.h"

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
