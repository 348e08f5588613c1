#pragma once
// Text as the local evaluator reads it: UTF-8 in, ASCII case folding (the lexicons are
// English), words, sentences and stop words. Shared by the sentiment scorer, key phrases,
// summaries, the actionable rules, custom fields and clarity.

#include <string>
#include <string_view>
#include <vector>

namespace feedback::responses::evaluation {

bool isAsciiPunctuation(char c);
// Lowercase as JavaScript's toLowerCase gives it for ASCII, Latin-1, Latin Extended-A, Greek
// and Cyrillic letters (what VADER's port compares with; other characters are kept).
std::string jsLower(std::string_view text);
std::string withoutAsciiPunctuation(std::string_view text);
// The length JavaScript gives a string: UTF-16 code units (a character beyond the BMP is 2).
std::size_t jsLength(std::string_view utf8);
// The pieces between whitespace characters as JavaScript's /\s/ knows them (ASCII spaces,
// U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF), empty
// pieces included, as String.prototype.split gives them.
std::vector<std::string_view> splitJsWhitespace(std::string_view text);

// A word of running text: letters, digits and inner apostrophes or hyphens ("don't",
// "follow-up"), lowercased; `offset` is where it starts in the text.
struct Word {
  std::string text;
  std::size_t offset = 0;
  std::size_t end = 0;
  bool ends_phrase = false;  // punctuation (or the text's end) follows it before the next word
};
std::vector<Word> words(std::string_view text);

// Sentences: split after '.', '!', '?' or a line break (several in a row belong together),
// trimmed, empty ones dropped.
struct Sentence {
  std::string_view text;
  std::size_t offset = 0;
};
std::vector<Sentence> sentences(std::string_view text);

// Common English function words (articles, pronouns, auxiliaries, prepositions, conjunctions)
// that carry no topic: key phrases break at them.
bool isStopWord(std::string_view lower_word);

// A crude stem for matching ("pricing", "prices" and "price" meet at "pric"): the word
// lowercased without a common inflectional suffix.
std::string stem(std::string_view lower_word);

// `text` cut to at most `limit` characters at a word boundary, with "…" when cut.
std::string clip(std::string_view text, std::size_t limit);

}  // namespace feedback::responses::evaluation
