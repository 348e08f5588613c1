#pragma once
// An extractive summary: the text itself when it is short enough; otherwise its best
// sentences, in their order in the text, as many as fit. A sentence scores the key phrases it
// holds (key_phrases.h) and 1 more for being the first; when not even the best one fits, it
// is cut at a word boundary with "…". Never more than `limit` characters.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "services/responses/evaluation/key_phrases.h"

namespace feedback::responses::evaluation {

inline constexpr std::size_t kSummaryLimit = 200;

std::string extractiveSummary(std::string_view text, const std::vector<KeyPhrase>& phrases,
                              std::size_t limit = kSummaryLimit);

}  // namespace feedback::responses::evaluation
