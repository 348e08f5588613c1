#pragma once
// Whether an answer gives the team something to act on. The rules, sentence by sentence
// (words lowercased, "’" read as "'"):
//  1. A request: "please" anywhere; a sentence that starts with an imperative verb (add, fix,
//     improve, make, change, remove, allow, let, bring, give, send, include, provide, reduce,
//     lower, simplify, consider; not words as often nouns there, such as "support"); or a wish or
//     suggestion: "should", "could you", "can you", "would you", "need to", "needs to",
//     "have to", "has to", "must", "i wish", "i'd like", "i would like", "i want",
//     "it would be nice/great/better/good/helpful", "would love", "why not", "suggest",
//     "suggestion", "recommend adding", "option to", "support for", "bring back".
//  2. A problem report: a problem word (bug, buggy, crash, broken, error, fail, slow, issue,
//     problem, missing, wrong, confusing, late, lost, stuck, freeze, refund, damaged, rude,
//     expensive, unusable, "doesn't work", "not working", "can't", "unable", "charged twice",
//     "hard to", each with its inflections) that is not negated by "no", "not", "never",
//     "without" or "zero" among the three words before it ("I had no issues" is no report).
// Praise and plain statements are not actionable, however strong.

#include <string_view>

namespace feedback::responses::evaluation {

bool isActionable(std::string_view text);

}  // namespace feedback::responses::evaluation
