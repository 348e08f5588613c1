#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

#include "common/core/errors.h"
#include "services/gateway/http/json_input.h"
#include "services/gateway/http/query.h"

using feedback::ApiError;
using feedback::ErrorCode;
using namespace feedback::gateway;

namespace {
ApiError errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const ApiError& e) {
    return e;
  }
  FAIL("no ApiError thrown");
  return ApiError(ErrorCode::kInternalError);
}
}  // namespace

TEST_CASE("json input: bodies that are not one JSON value are INVALID_JSON", "[json]") {
  for (std::string body : {"{\"name\": \"x\",", "{\"name\": \"x\"} {\"name\": \"y\"}",
                           "{'name': 'x'}", "{\"name\": \"\xff\"}", "nul"}) {
    INFO(body);
    CHECK(errorOf([&] { parseJsonObject(body); }).code() == ErrorCode::kInvalidJson);
  }
}

TEST_CASE("json input: nesting deeper than 32 is INVALID_JSON", "[json]") {
  auto nested = [](int depth) {
    std::string s = "{\"a\":";
    for (int i = 1; i < depth; ++i) s += "[";
    s += "1";
    for (int i = 1; i < depth; ++i) s += "]";
    return s + "}";
  };
  CHECK_NOTHROW(parseJsonObject(nested(32)));
  CHECK(errorOf([&] { parseJsonObject(nested(33)); }).code() == ErrorCode::kInvalidJson);
}

TEST_CASE("json input: a valid non-object is VALIDATION_ERROR, empty is {}", "[json]") {
  CHECK(errorOf([] { parseJsonObject("[1,2]"); }).code() == ErrorCode::kValidationError);
  CHECK(parseJsonObject("").empty());
  CHECK(parseJsonObject("  \n").empty());
}

TEST_CASE("json fields: unknown keys are VALIDATION_ERROR naming the path", "[json]") {
  auto object = parseJsonObject(R"({"name": "x", "colour": "red", "shape": 1})");
  auto e = errorOf([&] { JsonFields(object, "settings", {"name"}); });
  CHECK(e.code() == ErrorCode::kValidationError);
  CHECK(std::string(e.what()) == "Unknown field 'settings.colour'.");
  CHECK(e.details() == feedback::ErrorDetails{{"settings.colour", "unknown field"},
                                              {"settings.shape", "unknown field"}});
}

TEST_CASE("json fields: typed access, null is absent, wrong types are refused", "[json]") {
  auto object = parseJsonObject(
      R"({"s": "t", "b": true, "i": 7, "d": 2.0, "f": 2.5, "o": {}, "a": [], "n": null})");
  JsonFields f(object, "", {"s", "b", "i", "d", "f", "o", "a", "n", "absent"});
  CHECK(f.text("s") == "t");
  CHECK(f.boolean("b") == true);
  CHECK(f.integer("i") == 7);
  CHECK(f.integer("d") == 2);
  CHECK(f.object("o") != nullptr);
  CHECK(f.array("a") != nullptr);
  CHECK_FALSE(f.text("n"));
  CHECK_FALSE(f.has("n"));
  CHECK_FALSE(f.text("absent"));
  auto e = errorOf([&] { f.text("i"); });
  CHECK(e.code() == ErrorCode::kValidationError);
  CHECK(e.details().count("i") == 1);
  CHECK(errorOf([&] { f.integer("f"); }).code() == ErrorCode::kValidationError);
  CHECK(errorOf([&] { f.boolean("s"); }).code() == ErrorCode::kValidationError);
  CHECK(errorOf([&] { f.object("a"); }).code() == ErrorCode::kValidationError);
  CHECK(errorOf([&] { f.array("o"); }).code() == ErrorCode::kValidationError);
}

TEST_CASE("json fields: U+0000 is refused with the field's own code when it has one", "[json]") {
  auto object = parseJsonObject(R"({"name": "a\u0000b", "slug": "a\u0000b"})");
  JsonFields f(object, "", {"name", "slug"});
  auto generic = errorOf([&] { f.text("name"); });
  CHECK(generic.code() == ErrorCode::kValidationError);
  CHECK(generic.details().count("name") == 1);
  auto own = errorOf([&] { f.text("slug", ErrorCode::kInvalidSlug); });
  CHECK(own.code() == ErrorCode::kInvalidSlug);
  CHECK(own.details().count("slug") == 1);
}

TEST_CASE("query: decoding, last value wins, rebuilding with a new page", "[query]") {
  Query q("page=2&page_size=5&search=a%20b+c&page=3&flag");
  CHECK(q.get("page") == "3");
  CHECK(q.get("search") == "a b c");
  CHECK(q.get("flag") == "");
  CHECK_FALSE(q.get("missing"));
  CHECK(q.with("page", "4") == "page_size=5&search=a%20b+c&flag&page=4");
  CHECK(Query("").with("page", "2") == "page=2");
  CHECK(percentDecode("%zz%4") == "%zz%4");
}

// Found by the json_body fuzz target: "1e400" was read as infinity and stored as null.
TEST_CASE("json input: a number too large for a double is INVALID_JSON", "[json]") {
  for (std::string body : {R"({"n": 1e400})", R"({"a": [1, {"b": -18446741e400615}]})"}) {
    INFO(body);
    CHECK(errorOf([&] { parseJsonObject(body); }).code() == ErrorCode::kInvalidJson);
  }
  CHECK(parseJsonObject(R"({"n": 1e308, "m": 18446744073709551615})").size() == 2);
}

// Found by the gateway_request fuzz target: "?ordering=%D6" reached the responses service in a
// protobuf string, which it could not read.
TEST_CASE("query: a value that is not UTF-8 is VALIDATION_ERROR naming it", "[query]") {
  Query q("search=%FF%FE&ordering=-respo%D6&ok=caf%C3%A9");
  auto e = errorOf([&] { q.get("search"); });
  CHECK(e.code() == ErrorCode::kValidationError);
  CHECK(e.details().count("search") == 1);
  CHECK(errorOf([&] { q.get("ordering"); }).code() == ErrorCode::kValidationError);
  CHECK(q.get("ok") == "café");
  CHECK(q.bytes("search") == "\xff\xfe");
}
