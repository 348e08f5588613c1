#include "services/responses/evaluation/extractive_summary.h"

#include <algorithm>
#include <numeric>

#include "common/core/ascii.h"
#include "common/questions/answer_rules.h"
#include "services/responses/evaluation/text_units.h"

namespace feedback::responses::evaluation {
namespace {

// The text with every run of whitespace made one space.
std::string squeezed(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

double score(std::string_view sentence, std::size_t index, const std::vector<KeyPhrase>& phrases) {
  const std::string lower = asciiLowercase(squeezed(sentence));
  double total = index == 0 ? 1.0 : 0.0;
  for (const auto& p : phrases) {
    if (lower.find(p.text) != std::string::npos) total += p.score;
  }
  return total;
}

}  // namespace

std::string extractiveSummary(std::string_view text, const std::vector<KeyPhrase>& phrases,
                              std::size_t limit) {
  const std::string whole = squeezed(text);
  if (questions::characterCount(whole) <= limit) return whole;
  const auto found = sentences(text);
  std::vector<std::string> parts;
  std::vector<double> scores;
  for (std::size_t i = 0; i < found.size(); ++i) {
    parts.push_back(squeezed(found[i].text));
    scores.push_back(score(found[i].text, i, phrases));
  }
  std::vector<std::size_t> order(parts.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  std::vector<std::size_t> chosen;
  std::size_t used = 0;
  for (std::size_t i : order) {
    const std::size_t cost = questions::characterCount(parts[i]) + (chosen.empty() ? 0 : 1);
    if (used + cost > limit) continue;
    chosen.push_back(i);
    used += cost;
  }
  if (chosen.empty()) return order.empty() ? clip(whole, limit) : clip(parts[order[0]], limit);
  std::sort(chosen.begin(), chosen.end());
  std::string out;
  for (std::size_t i : chosen) {
    if (!out.empty()) out += ' ';
    out += parts[i];
  }
  return out;
}

}  // namespace feedback::responses::evaluation
