// summary_facts: reads a response's answers per line on stdin (a JSON array, as they are
// stored and as the API shows them) and prints their summary facts (summary_facts.h) as one
// JSON string per line. scripts/seed-responses writes the facts of the responses it seeds with
// it, so the facts' format is stated once, in summary_facts.cc.
#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>
#include <iostream>
#include <string>

#include "common/core/errors.h"
#include "services/responses/stored_answers.h"
#include "services/responses/summary_facts.h"

int main(int argc, char**) {
  using namespace feedback::responses;
  if (argc > 1) {
    std::cerr << "usage: summary_facts < answers (a JSON array per line)\n";
    return 2;
  }
  std::string line;
  int number = 0;
  while (std::getline(std::cin, line)) {
    ++number;
    try {
      std::cout << boost::json::serialize(boost::json::string(summaryFacts(parseAnswers(line))))
                << '\n';
    } catch (const feedback::ApiError&) {
      std::cerr << "summary_facts: line " << number << " is not a JSON array of answers\n";
      return 1;
    }
  }
  return 0;
}
