// AI insights of a respondent's text (services/responses/evaluation/): any text, valid UTF-8
// or not, gets insights in the documented shape (docs/api.md "AI insights and summaries") from
// the local evaluator, a clarity in [0, 1] and a follow-up prompt; and a model server's answer
// (any JSON) is believed only in that shape, after which it prints and reads back the same.
#include <cmath>

#include "common/core/text.h"
#include "common/questions/evaluation_rules.h"
#include "services/responses/evaluation/local_evaluator.h"
#include "tests/fuzz/fuzz_check.h"

namespace ev = feedback::responses::evaluation;

namespace {

std::size_t characters(std::string_view utf8) {
  std::size_t n = 0;
  for (unsigned char c : utf8) n += (c & 0xC0) != 0x80;
  return n;
}

void checkShape(const ev::Insights& insights, const feedback::questions::EvaluatorConfig& config) {
  FUZZ_CHECK(insights.sentiment == "positive" || insights.sentiment == "neutral" ||
             insights.sentiment == "negative");
  FUZZ_CHECK(std::isfinite(insights.sentiment_score) && insights.sentiment_score >= -1 &&
             insights.sentiment_score <= 1);
  FUZZ_CHECK(insights.key_topics.size() <= ev::kMaxKeyTopics);
  FUZZ_CHECK(characters(insights.summary) <= 200);
  FUZZ_CHECK(insights.custom_fields.has_value() == !config.custom_fields.empty());
  if (insights.custom_fields)
    FUZZ_CHECK(insights.custom_fields->size() == config.custom_fields.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  static const ev::LocalEvaluator evaluator{};
  const auto text = feedback::fuzz::asText(data, size);
  // Answers arrive as JSON strings and transcriptions as words: always valid UTF-8.
  if (!feedback::isValidUtf8(text)) return 0;
  feedback::questions::EvaluatorConfig config;
  if (size % 2 == 1) config.custom_fields = {"delivery_time", "price"};

  const ev::EvaluationInput input{"How was the delivery?", text, config};
  const auto insights = evaluator.insights(input);
  checkShape(insights, config);
  const double clarity = evaluator.clarity(input);
  FUZZ_CHECK(std::isfinite(clarity) && clarity >= 0 && clarity <= 1);
  FUZZ_CHECK(!evaluator.followUp(input, static_cast<int>(size % 6)).empty());

  // The same bytes as a model server's answer.
  if (auto believed = ev::insightsFromJson(text, config)) {
    checkShape(*believed, config);
    auto again = ev::insightsFromJson(ev::insightsJson(*believed), config);
    FUZZ_CHECK(again.has_value());
    FUZZ_CHECK(ev::insightsJson(*again) == ev::insightsJson(*believed));
  }
  FUZZ_CHECK(ev::insightsFromJson(ev::insightsJson(insights), config).has_value());
  return 0;
}
