#include <boost/json/parse.hpp>
#include <cmath>

#include "common/core/json_writer.h"
#include "common/questions/answer_rules.h"
#include "services/responses/evaluation/evaluator.h"
#include "services/responses/evaluation/extractive_summary.h"
#include "services/responses/evaluation/sentiment.h"
#include "services/responses/evaluation/text_units.h"

namespace feedback::responses::evaluation {

std::string insightsJson(const Insights& insights) {
  std::string out;
  out.reserve(256 + insights.summary.size());
  JsonWriter json(out);
  json.beginObject()
      .field("sentiment", insights.sentiment)
      .key("sentiment_score")
      .number(insights.sentiment_score)
      .field("actionable", insights.actionable)
      .key("key_topics")
      .beginArray();
  for (const auto& topic : insights.key_topics) json.string(topic);
  json.endArray().field("summary", insights.summary);
  if (insights.custom_fields) {
    json.key("custom_fields").beginObject();
    for (const auto& [name, value] : *insights.custom_fields) {
      json.key(name);
      if (value) {
        json.string(*value);
      } else {
        json.null();
      }
    }
    json.endObject();
  }
  json.endObject();
  return out;
}

std::optional<Insights> insightsFromJson(std::string_view text,
                                         const questions::EvaluatorConfig& config) {
  boost::system::error_code ec;
  auto parsed = boost::json::parse(text, ec);
  if (ec || !parsed.is_object()) return std::nullopt;
  const auto& o = parsed.get_object();
  Insights out;
  const auto* sentiment = o.if_contains("sentiment");
  const auto* score = o.if_contains("sentiment_score");
  const auto* actionable = o.if_contains("actionable");
  const auto* topics = o.if_contains("key_topics");
  const auto* summary = o.if_contains("summary");
  if (!sentiment || !sentiment->is_string() || !score || !score->is_number() || !actionable ||
      !actionable->is_bool() || !topics || !topics->is_array() || !summary ||
      !summary->is_string()) {
    return std::nullopt;
  }
  const std::string_view label = sentiment->get_string();
  out.sentiment_score = score->to_number<double>();
  if (!std::isfinite(out.sentiment_score) || out.sentiment_score < -1 || out.sentiment_score > 1 ||
      (label != "positive" && label != "neutral" && label != "negative")) {
    return std::nullopt;
  }
  // The label follows the score by the thresholds the API documents, also when a model
  // labelled a score near them otherwise.
  out.sentiment = std::string(sentimentLabel(out.sentiment_score));
  out.actionable = actionable->get_bool();
  if (topics->get_array().size() > kMaxKeyTopics) return std::nullopt;
  for (const auto& t : topics->get_array()) {
    if (!t.is_string() || t.get_string().empty()) return std::nullopt;
    out.key_topics.emplace_back(t.get_string());
  }
  out.summary = std::string(summary->get_string());
  if (questions::characterCount(out.summary) > kSummaryLimit) return std::nullopt;
  if (!config.custom_fields.empty()) {
    const auto* fields = o.if_contains("custom_fields");
    if (!fields || !fields->is_object()) return std::nullopt;
    CustomFieldValues values;
    for (const auto& name : config.custom_fields) {
      const auto* v = fields->get_object().if_contains(name);
      if (!v || !(v->is_null() || v->is_string())) return std::nullopt;
      values.emplace_back(name, v->is_string()
                                    ? std::optional<std::string>(std::string(v->get_string()))
                                    : std::nullopt);
    }
    out.custom_fields = std::move(values);
  }
  return out;
}

}  // namespace feedback::responses::evaluation
