// The 19 types of docs/api.md "Question types" beyond the 13: their configuration rules, answer
// rules (each seen failing) and the stored form of their values.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>
#include <string>

#include "common/core/errors.h"
#include "common/questions/answer_rules.h"
#include "common/questions/configuration_rules.h"
#include "common/questions/form_rules.h"
#include "common/questions/phone_numbers.h"

namespace q = feedback::questions;
using feedback::ApiError;
using feedback::ErrorCode;

namespace {

const char* kRows = R"([{"id": "speed", "label": "Speed"}, {"id": "price", "label": "Price"}])";
const char* kColumns =
    R"([{"id": "bad", "label": "Bad"}, {"id": "ok", "label": "OK"}, {"id": "good", "label": "Good"}])";

std::string matrix(const std::string& extra = "") {
  return std::string(R"({"rows": )") + kRows + R"(, "columns": )" + kColumns + extra + "}";
}

// The details path of the INVALID_CONFIGURATION `json` gets; "" when it is accepted.
std::string configError(const std::string& type, const std::string& json) {
  try {
    q::validateConfiguration(*q::findQuestionType(type), boost::json::parse(json).as_object(),
                             "questions[0].configuration", {}, "k");
  } catch (const ApiError& e) {
    CHECK(e.code() == ErrorCode::kInvalidConfiguration);
    return e.details().begin()->first;
  }
  return "";
}

q::Question question(const std::string& type, const std::string& configuration = "{}") {
  q::Question out;
  out.field_key = "k";
  out.prompt = "Prompt";
  out.response_type = type;
  out.configuration = boost::json::parse(configuration).as_object();
  return out;
}

// The stored form of `value_json` as an answer, or "refused: <problem>".
std::string judged(const q::Question& question, const std::string& value_json) {
  auto value = boost::json::parse(value_json);
  if (auto problem = q::FormRules::answerProblem(question, value)) return "refused: " + *problem;
  return boost::json::serialize(value);
}

bool valid(const q::Question& question, const std::string& value_json) {
  return judged(question, value_json).rfind("refused", 0) != 0;
}

}  // namespace

TEST_CASE("new types: documented configurations are accepted", "[questions]") {
  CHECK(configError("long_text", R"({"max_characters": 2000})") == "");
  CHECK(configError("phone_number", R"({"default_country": "US"})") == "");
  CHECK(configError("url", "{}") == "");
  CHECK(configError("dropdown", R"({"options": ["free", "pro"], "searchable": false})") == "");
  CHECK(configError("nps", R"({"lower_label": "Not likely", "upper_label": "Very likely"})") == "");
  CHECK(configError(
            "opinion_scale",
            R"({"steps": 7, "start_at_one": false, "labels": {"left": "Bad", "right": "Good"}})") ==
        "");
  CHECK(configError("csat", R"({"labels": ["a", "b", "c", "d", "e"]})") == "");
  CHECK(configError("ces", "{}") == "");
  CHECK(configError("slider",
                    R"({"min": 0, "max": 1000, "step": 50, "range": true, "unit": "EUR"})") == "");
  CHECK(configError("matrix", matrix(R"(, "multiple": true, "all_rows_required": true)")) == "");
  CHECK(configError("ranking", R"({"options": ["a", "b"], "rank_all": false})") == "");
  CHECK(configError("contact_info",
                    R"({"fields": {"email": {"required": true}, "company": {"show": false}}})") ==
        "");
  CHECK(configError("address",
                    R"({"fields": {"line2": {"show": false}, "region": {"required": true}}})") ==
        "");
  CHECK(configError("consent",
                    R"({"text": "I agree.", "link_url": "https://example.com/terms#use"})") == "");
  CHECK(configError("signature", R"({"max_size_kb": 128})") == "");
  CHECK(configError("time", R"({"min": "08:00", "max": "18:00"})") == "");
  CHECK(configError("datetime", "{}") == "");
  CHECK(configError("date_range", R"({"min_date": "2024-01-01", "max_date": "2026-12-31"})") == "");
  CHECK(configError("hidden_field", R"({"default_value": "direct"})") == "");
}

TEST_CASE("new types: wrong configurations name the key at fault", "[questions]") {
  struct Case {
    std::string type, json, path;
  };
  std::string options1001 = R"({"options": [)";
  for (int i = 0; i < 1001; ++i) options1001 += (i ? ",\"o" : "\"o") + std::to_string(i) + "\"";
  options1001 += "]}";
  std::string rows51 = R"({"rows": [)";
  for (int i = 0; i < 51; ++i) {
    rows51 +=
        std::string(i ? "," : "") + R"({"id": "r)" + std::to_string(i) + R"(", "label": "R"})";
  }
  rows51 += std::string(R"(], "columns": )") + kColumns + "}";
  for (
      const auto& c : {
          Case{"long_text", R"({"max_characters": 0})", "max_characters"},
          Case{"long_text", R"({"max_characters": 20001})", "max_characters"},
          Case{"long_text", R"({"max_characters": "100"})", "max_characters"},
          Case{"phone_number", R"({"default_country": "USA"})", "default_country"},
          Case{"phone_number", R"({"default_country": "QQ"})", "default_country"},
          Case{"phone_number", R"({"default_country": 1})", "default_country"},
          Case{"dropdown", R"({"options": []})", "options"},
          Case{"dropdown", R"({"options": ["a", "a"]})", "options[1]"},
          Case{"dropdown", R"({"options": "a,b"})", "options"},
          Case{"dropdown", options1001, "options"},
          Case{"dropdown", R"({"searchable": true})", "options"},
          Case{"dropdown", R"({"options": ["a"], "searchable": "yes"})", "searchable"},
          Case{"nps", R"({"lower_label": 0})", "lower_label"},
          Case{"opinion_scale", R"({"steps": 1})", "steps"},
          Case{"opinion_scale", R"({"steps": 12})", "steps"},
          Case{"opinion_scale", R"({"steps": 5.5})", "steps"},
          Case{"opinion_scale", R"({"start_at_one": "no"})", "start_at_one"},
          Case{"opinion_scale", R"({"labels": "left"})", "labels"},
          Case{"opinion_scale", R"({"labels": {"top": "x"}})", "labels.top"},
          Case{"csat", R"({"labels": ["a", "b", "c", "d"]})", "labels"},
          Case{"csat", R"({"labels": ["a", "b", "c", "d", "e", "f"]})", "labels"},
          Case{"ces", R"({"steps": 7})", "steps"},
          Case{"slider", R"({"step": 0})", "step"},
          Case{"slider", R"({"step": -1})", "step"},
          Case{"slider", R"({"range": "yes"})", "range"},
          Case{"slider", R"({"min": "0"})", "min"},
          Case{"slider", R"({"min": 200})", "min"},
          Case{"matrix", std::string(R"({"rows": [], "columns": )") + kColumns + "}", "rows"},
          Case{"matrix",
               std::string(R"({"rows": )") + kRows + R"(, "columns": [{"id": "a", "label": "A"}]})",
               "columns"},
          Case{
              "matrix",
              std::string(
                  R"({"rows": [{"id": "a", "label": "A"}, {"id": "a", "label": "B"}], "columns": )") +
                  kColumns + "}",
              "rows[1].id"},
          Case{"matrix",
               std::string(R"({"rows": [{"id": "Bad-Id", "label": "A"}], "columns": )") + kColumns +
                   "}",
               "rows[0].id"},
          Case{"matrix", rows51, "rows"},
          Case{"matrix", matrix(R"(, "multiple": "no")"), "multiple"},
          Case{"matrix", std::string(R"({"rows": )") + kRows + "}", "columns"},
          Case{"ranking", R"({"options": ["only"]})", "options"},
          Case{"ranking", R"({"options": ["a", "b", "a"]})", "options[2]"},
          Case{"ranking", R"({"options": ["a", "b"], "rank_all": "yes"})", "rank_all"},
          Case{"contact_info", R"({"fields": {"fax": {"show": true}}})", "fields.fax"},
          Case{"contact_info", R"({"fields": {"email": {"show": "yes"}}})", "fields.email.show"},
          Case{"contact_info", R"({"fields": {"email": {"visible": true}}})",
               "fields.email.visible"},
          Case{"contact_info", R"({"fields": {"email": true}})", "fields.email"},
          Case{"contact_info", R"({"fields": ["email", "phone"]})", "fields"},
          Case{"address", R"({"fields": {"planet": {"show": true}}})", "fields.planet"},
          Case{"address", R"({"fields": {"city": {"required": "yes"}}})", "fields.city.required"},
          Case{"consent", R"({"text": ""})", "text"},
          Case{"consent", "{}", "text"},
          Case{"consent", R"({"text": "I agree.", "link_url": "http://example.com/terms"})",
               "link_url"},
          Case{"consent", R"({"text": "I agree.", "link_url": "not a url"})", "link_url"},
          Case{"signature", R"({"max_size_kb": 0})", "max_size_kb"},
          Case{"signature", R"({"max_size_kb": 1025})", "max_size_kb"},
          Case{"time", R"({"min": "25:00"})", "min"},
          Case{"time", R"({"max": "9:00"})", "max"},
          Case{"time", R"({"min": "18:00", "max": "08:00"})", "min"},
          Case{"date_range", R"({"min_date": "2024-02-30"})", "min_date"},
          Case{"date_range", R"({"max_date": "31/12/2024"})", "max_date"},
          Case{"date_range", R"({"min_date": "2025-01-01", "max_date": "2024-01-01"})", "min_date"},
          Case{"hidden_field", R"({"default_value": 5})", "default_value"},
      }) {
    INFO(c.type << " " << c.json.substr(0, 120));
    CHECK(configError(c.type, c.json) == "questions[0].configuration." + c.path);
  }
  std::string long_consent(2001, 'x');
  CHECK(configError("consent", R"({"text": ")" + long_consent + "\"}") ==
        "questions[0].configuration.text");
}

TEST_CASE("new types: text-like answers", "[questions]") {
  const auto story = question("long_text", R"({"max_characters": 10})");
  CHECK(judged(story, R"("ten chars.")") == R"("ten chars.")");
  CHECK(judged(story, R"("eleven char")").rfind("refused", 0) == 0);
  CHECK(valid(question("long_text"), "\"" + std::string(5000, 'x') + "\""));
  CHECK_FALSE(valid(question("long_text"), "\"" + std::string(5001, 'x') + "\""));
  CHECK_FALSE(valid(story, "5"));

  const auto site = question("url");
  CHECK(judged(site, R"("https://example.com/path?x=1#top")") ==
        R"("https://example.com/path?x=1#top")");
  for (const char* bad : {R"("ftp://example.com")", R"("example.com")", R"("https://")", "1"}) {
    INFO(bad);
    CHECK_FALSE(valid(site, bad));
  }
  CHECK_FALSE(valid(site, "\"https://example.com/" + std::string(2040, 'a') + "\""));

  const auto source = question("hidden_field");
  CHECK(valid(source, R"("newsletter")"));
  CHECK(valid(source, "\"" + std::string(1000, 'x') + "\""));
  CHECK_FALSE(valid(source, "\"" + std::string(1001, 'x') + "\""));
  CHECK_FALSE(valid(source, "7"));

  const auto plan = question("dropdown", R"({"options": ["free", "pro"]})");
  CHECK(valid(plan, R"("pro")"));
  CHECK_FALSE(valid(plan, R"("gold")"));
  CHECK_FALSE(valid(plan, R"(["pro"])"));
}

TEST_CASE("new types: phone numbers are stored in E.164", "[questions]") {
  const auto us = question("phone_number", R"({"default_country": "US"})");
  CHECK(judged(us, R"("(415) 555-0123")") == R"("+14155550123")");
  CHECK(judged(us, R"("+44 7400 123456")") == R"("+447400123456")");
  CHECK(judged(us, R"("415.555.0123")") == R"("+14155550123")");
  CHECK_FALSE(valid(us, R"("555")"));
  CHECK_FALSE(valid(us, R"("call me")"));
  CHECK_FALSE(valid(us, "4155550123"));
  const auto anywhere = question("phone_number");
  CHECK(judged(anywhere, R"("+1 415 555 0123")") == R"("+14155550123")");
  CHECK_FALSE(valid(anywhere, R"("(415) 555-0123")"));  // national form needs a country
  CHECK(q::isCountryCode("gb"));
  CHECK(q::isCountryCode("US"));
  CHECK_FALSE(q::isCountryCode("USA"));
  CHECK_FALSE(q::isCountryCode("QQ"));
  CHECK_FALSE(q::isCountryCode(""));
}

TEST_CASE("new types: scales", "[questions]") {
  const auto nps = question("nps");
  CHECK(valid(nps, "0"));
  CHECK(valid(nps, "10"));
  CHECK_FALSE(valid(nps, "11"));
  CHECK_FALSE(valid(nps, "-1"));
  CHECK_FALSE(valid(nps, "7.5"));
  CHECK_FALSE(valid(nps, R"("7")"));
  auto details = q::ratingDetails(nps, boost::json::value(8));
  CHECK(details.value == 8);
  CHECK(details.max_value == 10);
  CHECK(details.scale_type == "nps");

  const auto from_zero = question("opinion_scale", R"({"steps": 7, "start_at_one": false})");
  CHECK(valid(from_zero, "0"));
  CHECK(valid(from_zero, "6"));
  CHECK_FALSE(valid(from_zero, "7"));
  const auto from_one = question("opinion_scale");
  CHECK_FALSE(valid(from_one, "0"));
  CHECK(valid(from_one, "5"));
  CHECK_FALSE(valid(from_one, "6"));

  CHECK(valid(question("csat"), "1"));
  CHECK_FALSE(valid(question("csat"), "6"));
  CHECK(valid(question("ces"), "7"));
  CHECK_FALSE(valid(question("ces"), "0"));
  CHECK_FALSE(valid(question("ces"), "8"));
}

TEST_CASE("new types: sliders", "[questions]") {
  const auto level = question("slider");
  CHECK(valid(level, "0"));
  CHECK(valid(level, "100"));
  CHECK(valid(level, "37"));
  CHECK_FALSE(valid(level, "101"));
  CHECK_FALSE(valid(level, "2.5"));
  CHECK_FALSE(valid(level, "[1, 2]"));
  const auto budget = question("slider", R"({"min": 0, "max": 1000, "step": 50, "range": true})");
  CHECK(judged(budget, "[100, 450]") == "[100,450]");
  CHECK(valid(budget, "[450, 450]"));
  CHECK_FALSE(valid(budget, "[450, 100]"));
  CHECK_FALSE(valid(budget, "[100, 460]"));
  CHECK_FALSE(valid(budget, "[100, 1050]"));
  CHECK_FALSE(valid(budget, "[100]"));
  CHECK_FALSE(valid(budget, "100"));
  const auto fine = question("slider", R"({"min": 0.5, "max": 1, "step": 0.1})");
  CHECK(valid(fine, "0.8"));
  CHECK_FALSE(valid(fine, "0.85"));
}

TEST_CASE("new types: matrix and ranking", "[questions]") {
  const auto grid = question("matrix", matrix());
  CHECK(valid(grid, R"({"speed": "good", "price": "ok"})"));
  CHECK(valid(grid, R"({"speed": "good"})"));
  CHECK_FALSE(valid(grid, R"({"speed": "great"})"));
  CHECK_FALSE(valid(grid, R"({"looks": "good"})"));
  CHECK_FALSE(valid(grid, R"({"speed": ["good"]})"));
  CHECK_FALSE(valid(grid, R"(["good"])"));
  const auto all = question("matrix", matrix(R"(, "all_rows_required": true)"));
  CHECK_FALSE(valid(all, R"({"speed": "good"})"));
  CHECK(valid(all, R"({"speed": "good", "price": "bad"})"));
  const auto many = question("matrix", matrix(R"(, "multiple": true)"));
  CHECK(valid(many, R"({"speed": ["good", "ok"]})"));
  CHECK_FALSE(valid(many, R"({"speed": "good"})"));
  CHECK_FALSE(valid(many, R"({"speed": ["good", "good"]})"));

  const auto rank = question("ranking", R"({"options": ["speed", "price", "support"]})");
  CHECK(valid(rank, R"(["support", "speed", "price"])"));
  CHECK_FALSE(valid(rank, R"(["support", "speed"])"));
  CHECK_FALSE(valid(rank, R"(["support", "speed", "speed"])"));
  CHECK_FALSE(valid(rank, R"(["support", "speed", "looks"])"));
  CHECK_FALSE(valid(rank, R"("speed")"));
  const auto some = question("ranking", R"({"options": ["a", "b", "c"], "rank_all": false})");
  CHECK(valid(some, R"(["b"])"));
  CHECK_FALSE(valid(some, R"(["b", "b"])"));
}

TEST_CASE("new types: contact_info and address", "[questions]") {
  const auto contact = question("contact_info", R"({"fields": {"email": {"required": true}}})");
  CHECK(
      judged(contact,
             R"({"first_name": "Ada", "email": "ada@example.com", "phone": "+44 7400 123456"})") ==
      R"({"first_name":"Ada","email":"ada@example.com","phone":"+447400123456"})");
  CHECK_FALSE(valid(contact, R"({"first_name": "Ada"})"));
  CHECK_FALSE(valid(contact, R"({"email": "not an email"})"));
  CHECK_FALSE(valid(contact, R"({"email": "ada@example.com", "phone": "call me"})"));
  CHECK_FALSE(valid(contact, R"({"email": "ada@example.com", "fax": "1"})"));
  CHECK_FALSE(valid(contact, R"({"email": "ada@example.com", "company": 5})"));
  const auto no_company = question("contact_info", R"({"fields": {"company": {"show": false}}})");
  CHECK_FALSE(valid(no_company, R"({"company": "ACME"})"));
  CHECK(valid(no_company, R"({"first_name": "Ada"})"));

  const auto address = question("address");
  CHECK(judged(address, R"({"line1": "10 Downing Street", "city": "London", "country": "gb"})") ==
        R"({"line1":"10 Downing Street","city":"London","country":"GB"})");
  CHECK_FALSE(valid(address, R"({"line1": "10 Downing Street", "city": "London"})"));
  CHECK_FALSE(valid(address, R"({"line1": "x", "city": "London", "country": "UK"})"));
  CHECK_FALSE(valid(address, R"({"line1": "   ", "city": "London", "country": "GB"})"));
  // A field not shown is not required either.
  const auto no_country = question("address", R"({"fields": {"country": {"show": false}}})");
  CHECK(valid(no_country, R"({"line1": "x", "city": "London"})"));
  const auto region = question("address", R"({"fields": {"region": {"required": true}}})");
  CHECK_FALSE(valid(region, R"({"line1": "x", "city": "y", "country": "FR"})"));
}

TEST_CASE("new types: consent, time, datetime and date_range", "[questions]") {
  const auto terms = question("consent", R"({"text": "I agree."})");
  CHECK(valid(terms, "true"));
  CHECK_FALSE(valid(terms, "false"));
  CHECK_FALSE(valid(terms, R"("yes")"));

  const auto slot = question("time", R"({"min": "08:00", "max": "18:00"})");
  CHECK(valid(slot, R"("09:30")"));
  CHECK(valid(slot, R"("18:00")"));
  CHECK_FALSE(valid(slot, R"("18:01")"));
  CHECK_FALSE(valid(slot, R"("07:59")"));
  CHECK_FALSE(valid(question("time"), R"("24:00")"));
  CHECK_FALSE(valid(question("time"), R"("9:30")"));

  const auto when = question("datetime");
  CHECK(judged(when, R"("2024-03-10T12:30:00+02:00")") == R"("2024-03-10T10:30:00.000000Z")");
  CHECK(judged(when, R"("2024-03-10T00:30Z")") == R"("2024-03-10T00:30:00.000000Z")");
  CHECK(judged(when, R"("2024-12-31T23:30:00.123456789-01:00")") ==
        R"("2025-01-01T00:30:00.123456Z")");
  for (const char* bad : {R"("2024-03-10T12:30:00")", R"("2024-03-10")", R"("2024-02-30T10:00Z")",
                          R"("2024-03-10T25:00Z")", R"("2024-03-10T12:30:00+2:00")", "1"}) {
    INFO(bad);
    CHECK_FALSE(valid(when, bad));
  }

  const auto trip =
      question("date_range", R"({"min_date": "2024-01-01", "max_date": "2026-12-31"})");
  CHECK(valid(trip, R"({"start": "2024-07-01", "end": "2024-07-14"})"));
  CHECK(valid(trip, R"({"start": "2024-07-01", "end": "2024-07-01"})"));
  CHECK_FALSE(valid(trip, R"({"start": "2024-07-14", "end": "2024-07-01"})"));
  CHECK_FALSE(valid(trip, R"({"start": "2023-12-31", "end": "2024-07-01"})"));
  CHECK_FALSE(valid(trip, R"({"start": "2024-07-01", "end": "2027-01-01"})"));
  CHECK_FALSE(valid(trip, R"({"start": "2024-07-01"})"));
  CHECK_FALSE(valid(trip, R"({"start": "2024-07-01", "end": "2024-07-02", "nights": 1})"));
}

TEST_CASE("new types: signatures are PNG files within max_size_kb", "[questions]") {
  const auto sig = question("signature", R"({"max_size_kb": 1})");
  CHECK(q::maxFileBytes(sig) == 1024);
  CHECK(q::isAllowedFileType(sig, "image/png"));
  CHECK_FALSE(q::isAllowedFileType(sig, "image/jpeg"));
  CHECK(q::maxFileBytes(question("signature")) == 256 * 1024);
  CHECK(valid(sig, R"({"file_name": "s.png", "content_type": "image/png", "size_bytes": 1024,
                       "url": "https://x.example/f"})"));
  CHECK_FALSE(valid(sig, R"({"file_name": "s.png", "content_type": "image/png", "size_bytes": 1025,
                             "url": "https://x.example/f"})"));
}

TEST_CASE("new types: numbers read as JavaScript writes them (recall, messages)", "[questions]") {
  CHECK(q::numberText(7) == "7");
  CHECK(q::numberText(100000) == "100000");
  CHECK(q::numberText(2000000) == "2000000");
  CHECK(q::numberText(-3) == "-3");
  CHECK(q::numberText(2.5) == "2.5");
  CHECK(q::numberText(0.1) == "0.1");
  CHECK(q::numberText(0.0001) == "0.0001");
  CHECK(q::numberText(1e21) == "1e+21");
  CHECK(q::numberText(1.5e-8) == "1.5e-8");
  CHECK(q::numberText(123456789012345678.0) == "123456789012345680");
}

TEST_CASE("new types: edge cases of phones, sliders and parts", "[questions]") {
  // E.164 cannot hold an extension: the number is refused, not stored without it.
  CHECK_FALSE(valid(question("phone_number", R"({"default_country": "US"})"),
                    R"("(415) 555-0123 ext. 12")"));
  // A line longer than any double is refused when the link is saved.
  CHECK(configError("slider", R"({"min": -1e308, "max": 1e308})") ==
        "questions[0].configuration.min");
  // Blank parts are dropped; all of them blank is no answer at all.
  const auto contact = question("contact_info");
  CHECK(judged(contact, R"({"first_name": "Ada", "email": "", "phone": null})") ==
        R"({"first_name":"Ada"})");
  CHECK(judged(contact, R"({"first_name": " ", "email": ""})") == "{}");
}
