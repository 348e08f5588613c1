// evaluate_text: reads one answer per line on stdin and prints what the local evaluator makes
// of it, one line each: its ai_insights (the default), or with --compound only its VADER
// compound score. tests/e2e/vader_agreement.js checks the scores against the reference
// package; scripts/seed-responses gives seeded answers their insights with it; and it shows
// anyone how a phrase is judged.
#include <iostream>
#include <string>
#include <string_view>

#include "services/responses/evaluation/local_evaluator.h"

int main(int argc, char** argv) {
  using namespace feedback::responses::evaluation;
  const bool compound = argc > 1 && std::string_view(argv[1]) == "--compound";
  if (argc > 2 || (argc == 2 && !compound)) {
    std::cerr << "usage: evaluate_text [--compound] < answers (one per line)\n";
    return 2;
  }
  const SentimentAnalyzer sentiment;
  const LocalEvaluator evaluator;
  const feedback::questions::EvaluatorConfig config;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (compound) {
      std::cout << sentiment.scores(line).compound << '\n';
    } else {
      std::cout << insightsJson(evaluator.insights({"", line, config})) << '\n';
    }
  }
  return 0;
}
