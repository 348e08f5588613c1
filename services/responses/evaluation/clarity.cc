#include "services/responses/evaluation/clarity.h"

#include <algorithm>
#include <cctype>

#include "services/responses/evaluation/text_units.h"

namespace feedback::responses::evaluation {
namespace {

constexpr double kVaguePenalty = 0.15;
constexpr int kMaxVagueCounted = 3;

constexpr std::string_view kVagueWords[] = {
    "ok",      "okay",    "fine",      "good",     "bad",        "nice",  "great",
    "alright", "dunno",   "idk",       "whatever", "nothing",    "stuff", "meh",
    "maybe",   "sure",    "yes",       "no",       "yeah",       "nope",  "none",
    "n/a",     "na",      "something", "anything", "everything", "etc",   "hmm",
    "cool",    "awesome", "terrible",  "sucks",    "thanks",     "thank"};

const std::initializer_list<std::initializer_list<std::string_view>> kVaguePhrases = {
    {"not", "sure"},     {"don't", "know"},     {"no", "idea"},  {"no", "comment"},
    {"it", "was", "ok"}, {"it", "was", "fine"}, {"all", "good"}, {"not", "bad"}};

bool vagueWord(std::string_view w) {
  return std::find(std::begin(kVagueWords), std::end(kVagueWords), w) != std::end(kVagueWords);
}

}  // namespace

double clarity(std::string_view text, const CustomFieldValues& custom_fields) {
  std::vector<std::string> w;
  for (auto& word : words(text)) w.push_back(std::move(word.text));
  std::size_t content = 0;
  int vague = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (vagueWord(w[i])) ++vague;
    if (!vagueWord(w[i]) && !isStopWord(w[i])) ++content;
    for (const auto& phrase : kVaguePhrases) {
      if (i + phrase.size() <= w.size() &&
          std::equal(phrase.begin(), phrase.end(), w.begin() + i)) {
        ++vague;
      }
    }
  }
  const double length = std::min(1.0, double(content) / 12.0);
  const bool digit =
      std::any_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  const double specificity =
      w.empty() ? 0.0 : std::min(1.0, double(content) / double(w.size()) + (digit ? 0.2 : 0.0));
  double score;
  if (custom_fields.empty()) {
    score = 0.65 * length + 0.35 * specificity;
  } else {
    const auto covered = std::count_if(custom_fields.begin(), custom_fields.end(),
                                       [](const auto& f) { return f.second.has_value(); });
    const double coverage = double(covered) / double(custom_fields.size());
    score = 0.45 * length + 0.25 * specificity + 0.30 * coverage;
  }
  score -= kVaguePenalty * std::min(vague, kMaxVagueCounted);
  return std::clamp(score, 0.0, 1.0);
}

std::string followUpPrompt(const CustomFieldValues& custom_fields, double sentiment_compound,
                           int asked) {
  for (const auto& [name, value] : custom_fields) {
    if (!value) return "Could you tell us more about " + readableFieldName(name) + "?";
  }
  if (asked > 0) {
    return "Is there anything else you can add, such as when it happened or what you expected "
           "instead?";
  }
  if (sentiment_compound <= -0.05) {
    return "What went wrong, exactly? An example would help us fix it.";
  }
  if (sentiment_compound >= 0.05) {
    return "What did you like most? A specific example helps us keep it that way.";
  }
  return "Could you tell us a bit more, with an example of what you mean?";
}

}  // namespace feedback::responses::evaluation
