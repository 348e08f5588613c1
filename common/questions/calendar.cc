#include "common/questions/calendar.h"

#include <cstdio>

namespace feedback::questions {
namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kSecondsPerDay = 86'400;

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

// Days from 1970-01-01 to the civil date (Howard Hinnant's days_from_civil).
int64_t daysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

struct Civil {
  int64_t year;
  int month;
  int day;
};

Civil civilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return {yoe + era * 400 + (month <= 2), month, day};
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
  if (text.size() < 17 || !isCalendarDate(text.substr(0, 10)) || text[10] != 'T') {
    return std::nullopt;
  }
  auto year = digits(text, 0, 4), month = digits(text, 5, 2), day = digits(text, 8, 2);
  auto hours = digits(text, 11, 2), minutes = digits(text, 14, 2);
  if (text[13] != ':' || !hours || !minutes || *hours > 23 || *minutes > 59) return std::nullopt;
  std::size_t i = 16;
  int seconds = 0;
  int64_t fraction = 0;
  if (i < text.size() && text[i] == ':') {
    auto s = digits(text, i + 1, 2);
    if (!s || *s > 59) return std::nullopt;  // a leap second is not accepted
    seconds = *s;
    i += 3;
    if (i < text.size() && text[i] == '.') {
      const std::size_t start = ++i;
      int64_t scale = 100'000;
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
        if (i - start >= 9) return std::nullopt;
        fraction += (text[i] - '0') * scale;
        scale /= 10;
        ++i;
      }
      if (i == start) return std::nullopt;
    }
  }
  int64_t offset_seconds = 0;
  if (i < text.size() && text[i] == 'Z') {
    ++i;
  } else if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
    auto oh = digits(text, i + 1, 2), om = digits(text, i + 4, 2);
    if (i + 6 > text.size() || text[i + 3] != ':' || !oh || !om || *oh > 23 || *om > 59) {
      return std::nullopt;
    }
    offset_seconds = (text[i] == '+' ? 1 : -1) * (*oh * 3600 + *om * 60);
    i += 6;
  } else {
    return std::nullopt;  // an instant needs its offset
  }
  if (i != text.size()) return std::nullopt;
  const int64_t local =
      daysFromCivil(*year, *month, *day) * kSecondsPerDay + *hours * 3600 + *minutes * 60 + seconds;
  const int64_t utc = local - offset_seconds;
  const int64_t first = daysFromCivil(1, 1, 1) * kSecondsPerDay;
  const int64_t last = daysFromCivil(10000, 1, 1) * kSecondsPerDay;
  if (utc < first || utc >= last) return std::nullopt;
  return utc * kMicrosPerSecond + fraction;
}

std::string utcText(int64_t micros) {
  int64_t seconds = micros / kMicrosPerSecond;
  int64_t fraction = micros % kMicrosPerSecond;
  if (fraction < 0) {
    fraction += kMicrosPerSecond;
    --seconds;
  }
  int64_t days = seconds / kSecondsPerDay;
  int64_t in_day = seconds % kSecondsPerDay;
  if (in_day < 0) {
    in_day += kSecondsPerDay;
    --days;
  }
  const Civil c = civilFromDays(days);
  char out[80];
  std::snprintf(out, sizeof out, "%04lld-%02d-%02dT%02lld:%02lld:%02lld.%06lldZ",
                static_cast<long long>(c.year), c.month, c.day,
                static_cast<long long>(in_day / 3600), static_cast<long long>(in_day / 60 % 60),
                static_cast<long long>(in_day % 60), static_cast<long long>(fraction));
  return out;
}

}  // namespace feedback::questions
