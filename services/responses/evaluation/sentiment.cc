#include "services/responses/evaluation/sentiment.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "services/responses/evaluation/text_units.h"

namespace feedback::responses::evaluation {

extern const std::string_view kVaderLexicon;  // embedded by cmake/EmbedText.cmake

namespace {

// The port's constants (vaderSentiment.js), with the same names.
constexpr double kBIncr = 0.293;
constexpr double kBDecr = -0.293;
constexpr double kCIncr = 0.733;
constexpr double kNScalar = -0.74;

constexpr std::string_view kPuncList[] = {".",   "!",   "?",   ",",    ";",   ":",
                                          "-",   "'",   "\"",  "!!",   "!!!", "??",
                                          "???", "?!?", "!?!", "?!?!", "!?!?"};

constexpr std::string_view kNegate[] = {
    "aint",   "arent",    "cannot",  "cant",     "couldnt",  "darent",   "didnt",   "doesnt",
    "ain't",  "aren't",   "can't",   "couldn't", "daren't",  "didn't",   "doesn't", "dont",
    "hadnt",  "hasnt",    "havent",  "isnt",     "mightnt",  "mustnt",   "neither", "don't",
    "hadn't", "hasn't",   "haven't", "isn't",    "mightn't", "mustn't",  "neednt",  "needn't",
    "never",  "none",     "nope",    "nor",      "not",      "nothing",  "nowhere", "oughtnt",
    "shant",  "shouldnt", "uhuh",    "wasnt",    "werent",   "oughtn't", "shan't",  "shouldn't",
    "uh-uh",  "wasn't",   "weren't", "without",  "wont",     "wouldnt",  "won't",   "wouldn't",
    "rarely", "seldom",   "despite"};

struct Weighted {
  std::string_view word;
  double value;
};

constexpr Weighted kBoosters[] = {
    {"absolutely", kBIncr},   {"amazingly", kBIncr},     {"awfully", kBIncr},
    {"completely", kBIncr},   {"considerably", kBIncr},  {"decidedly", kBIncr},
    {"deeply", kBIncr},       {"effing", kBIncr},        {"enormously", kBIncr},
    {"entirely", kBIncr},     {"especially", kBIncr},    {"exceptionally", kBIncr},
    {"extremely", kBIncr},    {"fabulously", kBIncr},    {"flipping", kBIncr},
    {"flippin", kBIncr},      {"fricking", kBIncr},      {"frickin", kBIncr},
    {"frigging", kBIncr},     {"friggin", kBIncr},       {"fully", kBIncr},
    {"fucking", kBIncr},      {"greatly", kBIncr},       {"hella", kBIncr},
    {"highly", kBIncr},       {"hugely", kBIncr},        {"incredibly", kBIncr},
    {"intensely", kBIncr},    {"majorly", kBIncr},       {"more", kBIncr},
    {"most", kBIncr},         {"particularly", kBIncr},  {"purely", kBIncr},
    {"quite", kBIncr},        {"really", kBIncr},        {"remarkably", kBIncr},
    {"so", kBIncr},           {"substantially", kBIncr}, {"thoroughly", kBIncr},
    {"totally", kBIncr},      {"tremendously", kBIncr},  {"uber", kBIncr},
    {"unbelievably", kBIncr}, {"unusually", kBIncr},     {"utterly", kBIncr},
    {"very", kBIncr},         {"almost", kBDecr},        {"barely", kBDecr},
    {"hardly", kBDecr},       {"just enough", kBDecr},   {"kind of", kBDecr},
    {"kinda", kBDecr},        {"kindof", kBDecr},        {"kind-of", kBDecr},
    {"less", kBDecr},         {"little", kBDecr},        {"marginally", kBDecr},
    {"occasionally", kBDecr}, {"partly", kBDecr},        {"scarcely", kBDecr},
    {"slightly", kBDecr},     {"somewhat", kBDecr},      {"sort of", kBDecr},
    {"sorta", kBDecr},        {"sortof", kBDecr},        {"sort-of", kBDecr},
};

constexpr Weighted kIdioms[] = {
    {"the shit", 3},        {"the bomb", 3},         {"bad ass", 1.5},     {"yeah right", -2},
    {"cut the mustard", 2}, {"kiss of death", -1.5}, {"hand to mouth", -2}};

template <std::size_t N>
const Weighted* findWeighted(const Weighted (&table)[N], std::string_view word) {
  for (const auto& w : table) {
    if (w.word == word) return &w;
  }
  return nullptr;
}

bool isBooster(std::string_view word) {
  return findWeighted(kBoosters, word) != nullptr;
}

bool isPuncListed(std::string_view s) {
  return std::find(std::begin(kPuncList), std::end(kPuncList), s) != std::end(kPuncList);
}

// Python's str.isupper() as the port writes it: /^[^a-z]*[A-Z]+[^a-z]*$/.
bool isUpper(std::string_view word) {
  bool upper = false;
  for (char c : word) {
    if (c >= 'a' && c <= 'z') return false;
    if (c >= 'A' && c <= 'Z') upper = true;
  }
  return upper;
}

// negated([word]) of the port: a negation word (exact case), or any word holding "n't".
bool negatedWord(std::string_view word) {
  if (std::find(std::begin(kNegate), std::end(kNegate), word) != std::end(kNegate)) return true;
  return word.find("n't") != std::string_view::npos;
}

// The port's tokens: the text split at every whitespace character, tokens shorter than two
// (UTF-16) characters dropped, and a token that is a listed punctuation mark before or after
// a word of the text (as it reads without punctuation) replaced by that word.
std::vector<std::string> wordsAndEmoticons(std::string_view text) {
  const std::string bare = withoutAsciiPunctuation(text);
  std::vector<std::string> bare_words;
  for (auto w : splitJsWhitespace(bare)) {
    if (jsLength(w) > 1) bare_words.emplace_back(w);
  }
  std::sort(bare_words.begin(), bare_words.end());
  auto isWord = [&](std::string_view w) {
    return !w.empty() && std::binary_search(bare_words.begin(), bare_words.end(), w);
  };
  std::vector<std::string> out;
  for (auto token : splitJsWhitespace(text)) {
    if (jsLength(token) <= 1) continue;
    // Words hold no ASCII punctuation and listed marks are nothing else, so a mark before a
    // word is the token's whole leading run of punctuation, and one after it the trailing run.
    std::size_t lead = 0;
    while (lead < token.size() && isAsciiPunctuation(token[lead])) ++lead;
    std::size_t trail = token.size();
    while (trail > 0 && isAsciiPunctuation(token[trail - 1])) --trail;
    if (lead > 0 && isPuncListed(token.substr(0, lead)) && isWord(token.substr(lead))) {
      out.emplace_back(token.substr(lead));
    } else if (trail < token.size() && isPuncListed(token.substr(trail)) &&
               isWord(token.substr(0, trail))) {
      out.emplace_back(token.substr(0, trail));
    } else {
      out.emplace_back(token);
    }
  }
  return out;
}

bool allcapDifferential(const std::vector<std::string>& words) {
  std::size_t allcaps = 0;
  for (const auto& w : words) allcaps += isUpper(w) ? 1 : 0;
  const std::size_t differential = words.size() - allcaps;
  return differential > 0 && differential < words.size();
}

double scalarIncDec(std::string_view word, double valence, bool cap_diff) {
  const Weighted* booster = findWeighted(kBoosters, jsLower(word));
  if (!booster) return 0;
  double scalar = booster->value;
  if (valence < 0) scalar *= -1;
  if (cap_diff && isUpper(word)) scalar += valence > 0 ? kCIncr : -kCIncr;
  return scalar;
}

double roundTo(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(value * scale) / scale;
}

class Scorer {
 public:
  Scorer(const SentimentAnalyzer& analyzer, std::vector<std::string> words)
      : analyzer_(analyzer), w_(std::move(words)), cap_diff_(allcapDifferential(w_)) {}

  std::vector<double> valences() const {
    std::vector<double> out;
    out.reserve(w_.size());
    for (std::size_t i = 0; i < w_.size(); ++i) {
      const std::string lower = jsLower(w_[i]);
      if ((i + 1 < w_.size() && lower == "kind" && jsLower(w_[i + 1]) == "of") ||
          isBooster(lower)) {
        out.push_back(0);
      } else {
        out.push_back(valence(i, lower));
      }
    }
    butCheck(out);
    return out;
  }

 private:
  bool inLexicon(std::size_t i) const { return analyzer_.valence(jsLower(w_[i])) != nullptr; }

  double valence(std::size_t i, const std::string& lower) const {
    const double* known = analyzer_.valence(lower);
    if (!known) return 0;
    double v = *known;
    if (isUpper(w_[i]) && cap_diff_) v += v > 0 ? kCIncr : -kCIncr;
    for (std::size_t start = 0; start < 3; ++start) {
      if (i <= start || inLexicon(i - (start + 1))) continue;
      double s = scalarIncDec(w_[i - (start + 1)], v, cap_diff_);
      if (start == 1 && s != 0) {
        s *= 0.95;
      } else if (start == 2 && s != 0) {
        s *= 0.9;
      }
      v = neverCheck(v + s, start, i);
      if (start == 2) v = idiomsCheck(v, i);
    }
    return leastCheck(v, i);
  }

  static bool soOrThis(const std::string& w) { return w == "so" || w == "this"; }

  double neverCheck(double v, std::size_t start, std::size_t i) const {
    if (start == 0 && negatedWord(w_[i - 1])) v *= kNScalar;
    if (start == 1) {
      if (w_[i - 2] == "never" && soOrThis(w_[i - 1])) {
        v *= 1.5;
      } else if (negatedWord(w_[i - 2])) {
        v *= kNScalar;
      }
    }
    if (start == 2) {
      if ((w_[i - 3] == "never" && soOrThis(w_[i - 2])) || soOrThis(w_[i - 1])) {
        v *= 1.25;
      } else if (negatedWord(w_[i - 3])) {
        v *= kNScalar;
      }
    }
    return v;
  }

  double idiomsCheck(double v, std::size_t i) const {
    const std::string onezero = w_[i - 1] + " " + w_[i];
    const std::string twoonezero = w_[i - 2] + " " + w_[i - 1] + " " + w_[i];
    const std::string twoone = w_[i - 2] + " " + w_[i - 1];
    const std::string threetwoone = w_[i - 3] + " " + w_[i - 2] + " " + w_[i - 1];
    const std::string threetwo = w_[i - 3] + " " + w_[i - 2];
    for (const auto* seq : {&onezero, &twoonezero, &twoone, &threetwoone, &threetwo}) {
      if (const auto* idiom = findWeighted(kIdioms, *seq)) {
        v = idiom->value;
        break;
      }
    }
    if (w_.size() - 1 > i) {
      if (const auto* idiom = findWeighted(kIdioms, w_[i] + " " + w_[i + 1])) v = idiom->value;
    }
    if (w_.size() - 1 > i + 1) {
      const std::string zeroonetwo = w_[i] + " " + w_[i + 1] + " " + w_[i + 2];
      if (const auto* idiom = findWeighted(kIdioms, zeroonetwo)) v = idiom->value;
    }
    if (isBooster(threetwo) || isBooster(twoone)) v += kBDecr;
    return v;
  }

  double leastCheck(double v, std::size_t i) const {
    if (i > 1 && jsLower(w_[i - 1]) == "least" && !inLexicon(i - 1)) {
      const std::string before = jsLower(w_[i - 2]);
      if (before != "at" && before != "very") v *= kNScalar;
    } else if (i > 0 && jsLower(w_[i - 1]) == "least" && !inLexicon(i - 1)) {
      v *= kNScalar;
    }
    return v;
  }

  void butCheck(std::vector<double>& valences) const {
    auto at = std::find(w_.begin(), w_.end(), "but");
    if (at == w_.end()) at = std::find(w_.begin(), w_.end(), "BUT");
    if (at == w_.end()) return;
    const auto but = static_cast<std::size_t>(at - w_.begin());
    for (std::size_t i = 0; i < valences.size(); ++i) {
      if (i < but) {
        valences[i] *= 0.5;
      } else if (i > but) {
        valences[i] *= 1.5;
      }
    }
  }

  const SentimentAnalyzer& analyzer_;
  const std::vector<std::string> w_;
  const bool cap_diff_;
};

double punctuationEmphasis(std::string_view text) {
  const auto exclamations = std::min<std::ptrdiff_t>(std::count(text.begin(), text.end(), '!'), 4);
  const auto questions = std::count(text.begin(), text.end(), '?');
  double question_amplifier = 0;
  if (questions > 1) question_amplifier = questions <= 3 ? double(questions) * 0.18 : 0.96;
  return double(exclamations) * 0.292 + question_amplifier;
}

}  // namespace

std::string_view sentimentLabel(double compound) {
  if (compound >= 0.05) return "positive";
  if (compound <= -0.05) return "negative";
  return "neutral";
}

SentimentAnalyzer::SentimentAnalyzer() : SentimentAnalyzer(kVaderLexicon) {}

SentimentAnalyzer::SentimentAnalyzer(std::string_view lexicon) {
  lexicon_.reserve(8192);
  while (!lexicon.empty()) {
    auto end = lexicon.find('\n');
    std::string_view line = lexicon.substr(0, end);
    lexicon.remove_prefix(end == std::string_view::npos ? lexicon.size() : end + 1);
    auto tab = line.find('\t');
    if (tab == std::string_view::npos || tab == 0) continue;
    const std::string number(line.substr(tab + 1, line.find('\t', tab + 1) - tab - 1));
    char* parsed_end = nullptr;
    const double mean = std::strtod(number.c_str(), &parsed_end);
    if (parsed_end == number.c_str()) continue;
    lexicon_[std::string(line.substr(0, tab))] = mean;  // a later line wins, as in the port
  }
}

const double* SentimentAnalyzer::valence(std::string_view token) const {
  auto it = lexicon_.find(token);
  return it == lexicon_.end() ? nullptr : &it->second;
}

SentimentScores SentimentAnalyzer::scores(std::string_view text) const {
  const std::vector<double> valences = Scorer(*this, wordsAndEmoticons(text)).valences();
  SentimentScores out;
  if (valences.empty()) return out;
  double sum = 0;
  for (double v : valences) sum += v;
  const double emphasis = punctuationEmphasis(text);
  if (sum > 0) {
    sum += emphasis;
  } else if (sum < 0) {
    sum -= emphasis;
  }
  out.compound = roundTo(std::clamp(sum / std::sqrt(sum * sum + 15), -1.0, 1.0), 4);
  double positive = 0, negative = 0, neutral = 0;
  for (double v : valences) {
    if (v > 0) {
      positive += v + 1;  // the port's compensation for neutral words counted as 1
    } else if (v < 0) {
      negative += v - 1;
    } else {
      neutral += 1;
    }
  }
  if (positive > std::fabs(negative)) {
    positive += emphasis;
  } else if (positive < std::fabs(negative)) {
    negative -= emphasis;
  }
  const double total = positive + std::fabs(negative) + neutral;
  out.positive = roundTo(std::fabs(positive / total), 3);
  out.negative = roundTo(std::fabs(negative / total), 3);
  out.neutral = roundTo(std::fabs(neutral / total), 3);
  return out;
}

}  // namespace feedback::responses::evaluation
