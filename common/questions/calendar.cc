#include "common/questions/calendar.h"

#include "common/core/time.h"

namespace feedback::questions {
namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;

bool isLeapYear(int64_t year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int daysInMonth(int64_t year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return kDays[month - 1] + (month == 2 && isLeapYear(year) ? 1 : 0);
}

// The digits at [from, from + length) of `text` as a number; nullopt when one is no digit.
std::optional<int> digits(std::string_view text, std::size_t from, std::size_t length) {
  if (from + length > text.size()) return std::nullopt;
  int n = 0;
  for (std::size_t i = from; i < from + length; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    n = n * 10 + (text[i] - '0');
  }
  return n;
}

}  // namespace

bool isCalendarDate(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  auto year = digits(text, 0, 4), month = digits(text, 5, 2), day = digits(text, 8, 2);
  if (!year || !month || !day || *year < 1 || *month < 1 || *month > 12 || *day < 1) return false;
  return *day <= daysInMonth(*year, *month);
}

bool isClockTime(std::string_view text) {
  if (text.size() != 5 || text[2] != ':') return false;
  auto hours = digits(text, 0, 2), minutes = digits(text, 3, 2);
  return hours && minutes && *hours < 24 && *minutes < 60;
}

std::optional<int64_t> instantMicros(std::string_view text) {
  // parseTimestamp (common/core/time.h) also reads a day alone, a space for the 'T', no offset
  // and an offset without its colon: an answer is held to the strict form first.
  if (text.size() < 17 || text[10] != 'T' || text.find(',') != std::string_view::npos) {
    return std::nullopt;
  }
  const bool zulu = text.back() == 'Z';
  const std::size_t sign = text.size() - 6;
  const bool offset =
      text.size() >= 22 && (text[sign] == '+' || text[sign] == '-') && text[sign + 3] == ':';
  if (!zulu && !offset) return std::nullopt;
  const std::size_t fraction = text.find('.');
  if (fraction != std::string_view::npos && (zulu ? text.size() - 1 : sign) - fraction - 1 > 9) {
    return std::nullopt;  // more than nanoseconds
  }
  auto parsed = parseTimestamp(text);
  if (!parsed || parsed->date_only) return std::nullopt;
  static constexpr int64_t kFirst = -62135596800LL * kMicrosPerSecond;  // 0001-01-01T00:00:00Z
  static constexpr int64_t kEnd = 253402300800LL * kMicrosPerSecond;    // 10000-01-01T00:00:00Z
  if (parsed->micros < kFirst || parsed->micros >= kEnd) return std::nullopt;
  return parsed->micros;
}

std::string utcText(int64_t micros) {
  return formatTimestamp(micros);
}

}  // namespace feedback::questions
