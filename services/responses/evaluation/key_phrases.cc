#include "services/responses/evaluation/key_phrases.h"

#include <algorithm>
#include <map>
#include <set>

#include "common/core/ascii.h"
#include "common/questions/answer_rules.h"
#include "services/responses/evaluation/text_units.h"

namespace feedback::responses::evaluation {
namespace {

constexpr std::size_t kMaxPhraseWords = 3;

bool isTopic(const std::vector<std::string>& phrase) {
  if (phrase.empty() || phrase.size() > kMaxPhraseWords) return false;
  if (std::all_of(phrase.begin(), phrase.end(), allAsciiDigits)) return false;
  return phrase.size() > 1 || questions::characterCount(phrase[0]) >= 3;
}

std::vector<std::vector<std::string>> candidates(std::string_view text) {
  std::vector<std::vector<std::string>> out;
  std::vector<std::string> current;
  // A run longer than a topic is cut into consecutive topics ("support answered within |
  // minutes today"), so that long unbroken runs still yield some.
  auto close = [&] {
    for (std::size_t at = 0; at < current.size(); at += kMaxPhraseWords) {
      const auto end = std::min(current.size(), at + kMaxPhraseWords);
      out.emplace_back(std::make_move_iterator(current.begin() + static_cast<std::ptrdiff_t>(at)),
                       std::make_move_iterator(current.begin() + static_cast<std::ptrdiff_t>(end)));
    }
    current.clear();
  };
  for (auto& w : words(text)) {
    if (isStopWord(w.text)) {
      close();
      continue;
    }
    current.push_back(std::move(w.text));
    if (w.ends_phrase) close();
  }
  close();
  return out;
}

std::string joined(const std::vector<std::string>& phrase) {
  std::string out;
  for (const auto& w : phrase) {
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

}  // namespace

std::vector<KeyPhrase> keyPhrases(std::string_view text, std::size_t limit) {
  const auto phrases = candidates(text);
  std::map<std::string, double> frequency, degree;
  for (const auto& phrase : phrases) {
    for (const auto& w : phrase) {
      frequency[w] += 1;
      degree[w] += static_cast<double>(phrase.size());
    }
  }
  std::vector<KeyPhrase> out;
  std::set<std::string> seen;
  for (const auto& phrase : phrases) {
    if (!isTopic(phrase)) continue;
    KeyPhrase k{joined(phrase), 0};
    if (!seen.insert(k.text).second) continue;
    for (const auto& w : phrase) k.score += degree[w] / frequency[w];
    out.push_back(std::move(k));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const KeyPhrase& a, const KeyPhrase& b) { return a.score > b.score; });
  if (out.size() > limit) out.resize(limit);
  return out;
}

}  // namespace feedback::responses::evaluation
