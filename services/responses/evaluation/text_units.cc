#include "services/responses/evaluation/text_units.h"
#include "common/questions/answer_rules.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <tuple>

#include "common/core/ascii.h"

namespace feedback::responses::evaluation {
namespace {

bool isContinuation(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

// The code point at `i` and its length in bytes (a malformed byte reads as itself).
std::pair<uint32_t, std::size_t> codePoint(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  if (i + n > s.size()) n = 1;
  if (n == 1) return {c, 1};
  uint32_t cp = c & (0xFF >> (n + 1));
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if (!isContinuation(b)) return {c, 1};
    cp = (cp << 6) | (b & 0x3F);
  }
  return {cp, n};
}

bool isJsWhitespace(uint32_t cp) {
  return cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || cp == 0xA0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
         cp == 0x205F || cp == 0x3000 || cp == 0xFEFF;
}

// Letters and digits: ASCII ones, and the letters of the scripts people write feedback in
// (Latin, Greek, Cyrillic and the rest up to U+1FFF, kana, CJK, Hangul); punctuation, symbols
// and emoji are not.
bool isWordCodePoint(uint32_t cp) {
  if (cp < 0x80) return std::isalnum(static_cast<int>(cp)) != 0;
  return (cp >= 0xC0 && cp <= 0x1FFF && cp != 0xD7 && cp != 0xF7) ||
         (cp >= 0x3040 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7AF);
}

constexpr std::array<std::string_view, 176> kStopWords = {
    "a",          "about",      "above",    "after",     "again",  "against", "all",
    "also",       "am",         "an",       "and",       "any",    "are",     "aren't",
    "as",         "at",         "be",       "because",   "been",   "before",  "being",
    "below",      "between",    "both",     "but",       "by",     "can",     "can't",
    "cannot",     "could",      "couldn't", "did",       "didn't", "do",      "does",
    "doesn't",    "doing",      "don't",    "down",      "during", "each",    "even",
    "ever",       "every",      "few",      "for",       "from",   "further", "get",
    "got",        "had",        "hadn't",   "has",       "hasn't", "have",    "haven't",
    "having",     "he",         "her",      "here",      "hers",   "herself", "him",
    "himself",    "his",        "how",      "i",         "i'd",    "i'll",    "i'm",
    "i've",       "if",         "in",       "into",      "is",     "isn't",   "it",
    "it's",       "its",        "itself",   "just",      "let",    "let's",   "me",
    "more",       "most",       "much",     "my",        "myself", "no",      "nor",
    "not",        "now",        "of",       "off",       "on",     "once",    "one",
    "only",       "or",         "other",    "ought",     "our",    "ours",    "ourselves",
    "out",        "over",       "own",      "please",    "quite",  "rather",  "really",
    "same",       "she",        "should",   "shouldn't", "so",     "some",    "such",
    "than",       "that",       "that's",   "the",       "their",  "theirs",  "them",
    "themselves", "then",       "there",    "there's",   "these",  "they",    "they're",
    "this",       "those",      "though",   "through",   "to",     "too",     "under",
    "until",      "up",         "us",       "very",      "was",    "wasn't",  "we",
    "we're",      "were",       "weren't",  "what",      "when",   "where",   "which",
    "while",      "who",        "whom",     "why",       "will",   "with",    "won't",
    "would",      "wouldn't",   "yet",      "you",       "you're", "your",    "yours",
    "yourself",   "yourselves", "lot",      "lots",      "thing",  "things",  "way",
    "still",
};

// Sorted at compile time for a binary search: isStopWord runs for every word of every
// evaluated answer, and a scan of 176 words was a third of keyPhrases's time.
constexpr auto kSortedStopWords = [] {
  auto words = kStopWords;
  std::sort(words.begin(), words.end());
  return words;
}();

}  // namespace

bool isAsciiPunctuation(char c) {
  return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
         (c >= '{' && c <= '~');
}

namespace {

uint32_t lowerCodePoint(uint32_t cp) {
  if (cp >= 'A' && cp <= 'Z') return cp + 0x20;
  if (cp < 0xC0) return cp;
  if (cp <= 0xDE) return cp == 0xD7 ? cp : cp + 0x20;  // Latin-1, but for the multiplication sign
  if ((cp >= 0x100 && cp <= 0x137) || (cp >= 0x14A && cp <= 0x177)) return cp | 1;  // pairs
  if ((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E)) {
    return cp % 2 == 1 ? cp + 1 : cp;
  }
  if (cp == 0x178) return 0xFF;
  if (cp >= 0x391 && cp <= 0x3A9 && cp != 0x3A2) return cp + 0x20;  // Greek
  if (cp >= 0x410 && cp <= 0x42F) return cp + 0x20;                 // Cyrillic
  if (cp >= 0x400 && cp <= 0x40F) return cp + 0x50;
  return cp;
}

void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

std::string jsLower(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    auto [cp, n] = codePoint(text, i);
    if (n == 1) {
      out += cp < 0x80 ? static_cast<char>(lowerCodePoint(cp)) : text[i];  // or a stray byte
    } else {
      appendUtf8(out, lowerCodePoint(cp));
    }
    i += n;
  }
  return out;
}

std::string withoutAsciiPunctuation(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (!isAsciiPunctuation(c)) out += c;
  }
  return out;
}

std::size_t jsLength(std::string_view utf8) {
  std::size_t units = 0;
  for (std::size_t i = 0; i < utf8.size();) {
    auto [cp, n] = codePoint(utf8, i);
    units += cp > 0xFFFF ? 2 : 1;
    i += n;
  }
  return units;
}

std::vector<std::string_view> splitJsWhitespace(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size();) {
    auto [cp, n] = codePoint(text, i);
    if (isJsWhitespace(cp)) {
      out.push_back(text.substr(start, i - start));
      start = i + n;
    }
    i += n;
  }
  out.push_back(text.substr(start));
  return out;
}

std::vector<Word> words(std::string_view text) {
  std::vector<Word> out;
  bool punctuation_since_last = false;
  for (std::size_t i = 0; i < text.size();) {
    auto [cp, n] = codePoint(text, i);
    if (!isWordCodePoint(cp)) {
      if (!isJsWhitespace(cp)) punctuation_since_last = true;
      i += n;
      continue;
    }
    if (!out.empty() && punctuation_since_last) out.back().ends_phrase = true;
    punctuation_since_last = false;
    Word w;
    w.offset = i;
    while (i < text.size()) {
      std::tie(cp, n) = codePoint(text, i);
      if (isWordCodePoint(cp)) {
        if (n == 1) {
          w.text += asciiLower(text[i]);
        } else {
          w.text += text.substr(i, n);
        }
        i += n;
        continue;
      }
      // An apostrophe or hyphen between word characters belongs to the word.
      if (cp == '\'' || cp == 0x2019 || cp == '-') {
        const std::size_t next = i + n;
        if (next < text.size() && isWordCodePoint(codePoint(text, next).first)) {
          w.text += cp == '-' ? '-' : '\'';
          i = next;
          continue;
        }
      }
      break;
    }
    w.end = i;
    out.push_back(std::move(w));
  }
  if (!out.empty()) out.back().ends_phrase = true;
  return out;
}

std::vector<Sentence> sentences(std::string_view text) {
  std::vector<Sentence> out;
  auto add = [&](std::size_t from, std::size_t to) {
    while (from < to && std::isspace(static_cast<unsigned char>(text[from]))) ++from;
    while (to > from && std::isspace(static_cast<unsigned char>(text[to - 1]))) --to;
    if (to > from) out.push_back({text.substr(from, to - from), from});
  };
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      add(start, i);
      start = i + 1;
    } else if (c == '.' || c == '!' || c == '?') {
      std::size_t end = i + 1;
      while (end < text.size() && (text[end] == '.' || text[end] == '!' || text[end] == '?')) {
        ++end;
      }
      if (end == text.size() || std::isspace(static_cast<unsigned char>(text[end]))) {
        add(start, end);
        start = end;
      }
      i = end - 1;
    }
  }
  add(start, text.size());
  return out;
}

bool isStopWord(std::string_view lower_word) {
  return std::binary_search(kSortedStopWords.begin(), kSortedStopWords.end(), lower_word);
}

std::string stem(std::string_view lower_word) {
  std::string w(lower_word);
  auto strip = [&](std::string_view suffix, std::string_view replacement) {
    if (w.size() >= suffix.size() + 3 && w.ends_with(suffix)) {
      w.resize(w.size() - suffix.size());
      w += replacement;
      return true;
    }
    return false;
  };
  strip("ies", "y") || strip("ing", "") || strip("ed", "") || strip("es", "") || strip("ly", "") ||
      (w.size() > 3 && !w.ends_with("ss") && strip("s", ""));
  if (w.size() > 3 && w.back() == 'e') w.pop_back();
  return w;
}

std::string clip(std::string_view text, std::size_t limit) {
  if (questions::characterCount(text) <= limit) return std::string(text);
  // Room for the ellipsis; then back to the last space, unless that loses most of the text.
  std::size_t bytes = 0, count = 0;
  while (bytes < text.size() && count + 1 < limit) {
    bytes += codePoint(text, bytes).second;
    ++count;
  }
  std::size_t cut = bytes;
  auto space = text.substr(0, bytes).find_last_of(' ');
  if (space != std::string_view::npos && space > bytes / 2) cut = space;
  std::string out(text.substr(0, cut));
  while (!out.empty() && (std::isspace(static_cast<unsigned char>(out.back())) ||
                          out.back() == ',' || out.back() == ';' || out.back() == ':')) {
    out.pop_back();
  }
  return out + "\xE2\x80\xA6";
}

}  // namespace feedback::responses::evaluation
