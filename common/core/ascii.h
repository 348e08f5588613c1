#pragma once
// Small helpers for ASCII protocol text (HTTP headers, hosts, media types, settings), stated
// once. They never depend on the C locale: a header compares the same on every machine.

#include <string>
#include <string_view>

namespace feedback {

// Optional whitespace of HTTP fields (RFC 9110 section 5.6.3).
inline constexpr std::string_view kHttpWhitespace = " \t";
// What isspace() accepts in the C locale.
inline constexpr std::string_view kAsciiWhitespace = " \t\r\n\f\v";

// `text` without the characters of `whitespace` at either end.
inline std::string_view trim(std::string_view text,
                             std::string_view whitespace = kAsciiWhitespace) {
  const auto first = text.find_first_not_of(whitespace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(whitespace) - first + 1);
}

inline constexpr bool isAsciiDigit(char c) {
  return c >= '0' && c <= '9';
}

// Whether every byte of `text` is 0-9 (true for empty text).
inline constexpr bool allAsciiDigits(std::string_view text) {
  for (char c : text) {
    if (!isAsciiDigit(c)) return false;
  }
  return true;
}

inline constexpr char asciiLower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

inline constexpr char asciiUpper(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

// `text` with A-Z lowered; every other byte (UTF-8 included) as it was.
inline std::string asciiLowercase(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = asciiLower(c);
  return out;
}

inline std::string asciiUppercase(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = asciiUpper(c);
  return out;
}

inline bool equalsIgnoringAsciiCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (asciiLower(a[i]) != asciiLower(b[i])) return false;
  }
  return true;
}

}  // namespace feedback
