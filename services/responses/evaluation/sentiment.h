#pragma once
// VADER sentiment (Hutto and Gilbert, 2014) as its reference JavaScript port, npm
// vader-sentiment 1.1.3, computes it: the lexicon (embedded from that package at build time,
// cmake/EmbedText.cmake), negations, booster and dampener words, "but", ALL-CAPS emphasis
// against mixed case, "least", idioms, exclamation and question marks, and the compound score
// normalised to [-1, 1]. The port's quirks are kept on purpose (tokens of one character are
// dropped, "but" is recognised in lower or upper case only, idioms compare case-sensitively),
// so that scores agree with it; tests/e2e checks them against the package itself.

#include <string>
#include <string_view>

#include "common/core/text_map.h"

namespace feedback::responses::evaluation {

struct SentimentScores {
  double compound = 0;  // normalised sum of valences, rounded to 4 decimals as the port does
  double positive = 0;  // shares of the text's words, rounded to 3 decimals
  double neutral = 0;
  double negative = 0;
};

// The label of a compound score by VADER's usual thresholds: >= 0.05 positive, <= -0.05
// negative, neutral between.
std::string_view sentimentLabel(double compound);

class SentimentAnalyzer {
 public:
  // `lexicon`: VADER's lexicon file (token, mean valence, standard deviation, ratings, tab
  // separated, one per line); by default the one embedded in the binary.
  SentimentAnalyzer();
  explicit SentimentAnalyzer(std::string_view lexicon);

  SentimentScores scores(std::string_view text) const;
  // The mean valence of a token as the lexicon has it (exact, case-sensitive); nullptr if none.
  const double* valence(std::string_view token) const;

 private:
  TextMap<double> lexicon_;
};

}  // namespace feedback::responses::evaluation
