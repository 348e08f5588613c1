#pragma once
// Key phrases by RAKE (Rose, Engel, Cramer and Cowley, 2010): the candidates are the runs of
// words between stop words and punctuation; a word scores its degree over its frequency (its
// degree: the words of every candidate it appears in, itself included), a candidate the sum
// of its words' scores. Candidates of more than four words, of digits only, or of one word
// shorter than three letters are no topics. Each phrase is kept once, best first; ties keep
// the order of the text.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace feedback::responses::evaluation {

struct KeyPhrase {
  std::string text;  // lowercased, words joined by one space
  double score = 0;
};

std::vector<KeyPhrase> keyPhrases(std::string_view text, std::size_t limit = 5);

}  // namespace feedback::responses::evaluation
