// sentiment_scores: reads one text per line on stdin and prints its VADER compound score,
// one per line, as the responses service computes it (tests/e2e/vader_agreement.js checks
// them against the reference package; also handy to see how a phrase scores).
#include <iostream>
#include <string>

#include "services/responses/evaluation/sentiment.h"

int main() {
  const feedback::responses::evaluation::SentimentAnalyzer analyzer;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::cout << analyzer.scores(line).compound << '\n';
  }
  return 0;
}
