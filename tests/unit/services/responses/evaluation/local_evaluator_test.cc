#include "services/responses/evaluation/local_evaluator.h"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

using namespace feedback::responses::evaluation;
using feedback::questions::EvaluatorConfig;

TEST_CASE("local evaluator: insights of the contract's shape", "[evaluation]") {
  const LocalEvaluator evaluator;
  EvaluatorConfig config;
  config.custom_fields = {"price", "delivery"};
  const auto insights =
      evaluator.insights({"How was it?", "The price is fair but the delivery took weeks.", config});
  CHECK(insights.sentiment == "positive");
  CHECK(insights.actionable == false);
  REQUIRE(insights.custom_fields.has_value());
  const auto json = boost::json::parse(insightsJson(insights)).as_object();
  CHECK(json.size() == 6);
  CHECK(json.at("sentiment").as_string() == "positive");
  CHECK(json.at("sentiment_score").is_number());
  CHECK(json.at("actionable").as_bool() == false);
  CHECK(json.at("key_topics").as_array().size() <= 5);
  CHECK(json.at("summary").as_string() == "The price is fair but the delivery took weeks.");
  CHECK(json.at("custom_fields").as_object().at("price").as_string() ==
        "The price is fair but the delivery took weeks.");
  // Without custom fields there is no custom_fields key.
  const auto plain = boost::json::parse(insightsJson(evaluator.insights({"", "Awful.", {}})));
  CHECK(plain.as_object().size() == 5);
  CHECK(plain.as_object().at("sentiment").as_string() == "negative");
}

TEST_CASE("insights from a model's JSON are checked against the contract", "[evaluation]") {
  EvaluatorConfig none;
  const char* good = R"({"sentiment":"negative","sentiment_score":-0.6,"actionable":true,)"
                     R"("key_topics":["checkout"],"summary":"Checkout broke."})";
  auto parsed = insightsFromJson(good, none);
  REQUIRE(parsed);
  CHECK(parsed->sentiment == "negative");
  CHECK(parsed->key_topics == std::vector<std::string>{"checkout"});
  CHECK_FALSE(insightsFromJson("not json", none));
  CHECK_FALSE(insightsFromJson("[]", none));
  // A label that disagrees with the score follows the score; an unknown label is refused.
  auto relabelled = insightsFromJson(
      R"({"sentiment":"positive","sentiment_score":-0.6,"actionable":true,"key_topics":[],)"
      R"("summary":""})",
      none);
  REQUIRE(relabelled);
  CHECK(relabelled->sentiment == "negative");
  CHECK_FALSE(insightsFromJson(R"({"sentiment":"happy","sentiment_score":0.6,"actionable":true,)"
                               R"("key_topics":[],"summary":""})",
                               none));
  CHECK_FALSE(insightsFromJson(R"({"sentiment":"neutral","sentiment_score":1.5,"actionable":true,)"
                               R"("key_topics":[],"summary":""})",
                               none));
  CHECK_FALSE(insightsFromJson(R"({"sentiment":"neutral","sentiment_score":0,"actionable":"yes",)"
                               R"("key_topics":[],"summary":""})",
                               none));
  CHECK_FALSE(insightsFromJson(R"({"sentiment":"neutral","sentiment_score":0,"actionable":true,)"
                               R"("key_topics":["a","b","c","d","e","f"],"summary":""})",
                               none));
  CHECK_FALSE(insightsFromJson(R"({"sentiment":"neutral","sentiment_score":0,"actionable":true,)"
                               R"("key_topics":[""],"summary":""})",
                               none));
  EvaluatorConfig fields;
  fields.custom_fields = {"price"};
  CHECK_FALSE(insightsFromJson(good, fields));  // custom_fields missing
  auto with = insightsFromJson(
      R"({"sentiment":"neutral","sentiment_score":0,"actionable":false,"key_topics":[],)"
      R"("summary":"x","custom_fields":{"price":null}})",
      fields);
  REQUIRE(with);
  REQUIRE(with->custom_fields);
  CHECK_FALSE((*with->custom_fields)[0].second.has_value());
}
