#include "services/responses/evaluation/actionable.h"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "services/responses/evaluation/text_units.h"

namespace feedback::responses::evaluation {
namespace {

using Words = std::vector<std::string>;

// Verbs that start a request; words as often nouns there ("Support answered...", "Update
// broke...") are left out.
constexpr std::string_view kImperatives[] = {
    "add",  "fix",  "improve", "make",    "change", "remove", "allow",    "let",     "bring",
    "give", "send", "include", "provide", "reduce", "lower",  "simplify", "consider"};

// Word sequences that ask for something wherever they stand.
const std::initializer_list<std::initializer_list<std::string_view>> kRequests = {
    {"please"},
    {"should"},
    {"could", "you"},
    {"can", "you"},
    {"would", "you"},
    {"need", "to"},
    {"needs", "to"},
    {"have", "to"},
    {"has", "to"},
    {"must"},
    {"i", "wish"},
    {"i'd", "like"},
    {"i", "would", "like"},
    {"i", "want"},
    {"it", "would", "be", "nice"},
    {"it", "would", "be", "great"},
    {"it", "would", "be", "better"},
    {"it", "would", "be", "good"},
    {"it", "would", "be", "helpful"},
    {"would", "love"},
    {"why", "not"},
    {"suggest"},
    {"suggestion"},
    {"recommend", "adding"},
    {"option", "to"},
    {"support", "for"},
    {"bring", "back"}};

constexpr std::string_view kProblemWords[] = {
    "bug",        "bugs",     "buggy",   "crash",    "crashes",  "crashed", "crashing",
    "broken",     "broke",    "breaks",  "error",    "errors",   "fail",    "fails",
    "failed",     "failing",  "failure", "failures", "slow",     "slower",  "slowly",
    "sluggish",   "issue",    "issues",  "problem",  "problems", "missing", "wrong",
    "confusing",  "confused", "late",    "delayed",  "lost",     "stuck",   "freeze",
    "freezes",    "froze",    "frozen",  "refund",   "damaged",  "rude",    "expensive",
    "overpriced", "unusable", "glitch",  "glitches", "laggy",    "can't",   "cannot",
    "unable"};

// Sequences that report a problem as a whole.
const std::initializer_list<std::initializer_list<std::string_view>> kProblemPhrases = {
    {"doesn't", "work"},    {"does", "not", "work"}, {"didn't", "work"}, {"not", "working"},
    {"stopped", "working"}, {"charged", "twice"},    {"hard", "to"}};

constexpr std::string_view kNegations[] = {"no", "not", "never", "without", "zero"};

template <class List>
bool contains(const List& list, std::string_view word) {
  return std::find(std::begin(list), std::end(list), word) != std::end(list);
}

bool matchesAt(const Words& w, std::size_t i, std::initializer_list<std::string_view> seq) {
  if (i + seq.size() > w.size()) return false;
  std::size_t k = i;
  for (auto part : seq) {
    if (w[k++] != part) return false;
  }
  return true;
}

bool negatedAt(const Words& w, std::size_t i) {
  for (std::size_t back = 1; back <= 3 && back <= i; ++back) {
    if (contains(kNegations, w[i - back])) return true;
  }
  return false;
}

bool asks(const Words& w) {
  if (!w.empty() && contains(kImperatives, w[0])) return true;
  for (std::size_t i = 0; i < w.size(); ++i) {
    for (const auto& seq : kRequests) {
      if (matchesAt(w, i, seq)) return true;
    }
  }
  return false;
}

bool reportsProblem(const Words& w) {
  for (std::size_t i = 0; i < w.size(); ++i) {
    bool problem = contains(kProblemWords, w[i]);
    for (const auto& seq : kProblemPhrases) problem = problem || matchesAt(w, i, seq);
    // "not working": the phrase's own "not" is no negation of it.
    if (problem && (w[i] == "not" || !negatedAt(w, i))) return true;
  }
  return false;
}

}  // namespace

bool isActionable(std::string_view text) {
  for (const auto& sentence : sentences(text)) {
    Words w;
    for (auto& word : words(sentence.text)) w.push_back(std::move(word.text));
    if (asks(w) || reportsProblem(w)) return true;
  }
  return false;
}

}  // namespace feedback::responses::evaluation
