#include "common/core/time.h"

#include <chrono>

namespace feedback {

int64_t nowMicros() {
  using namespace std::chrono;
  return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

std::string formatTimestamp(int64_t micros) {
  int64_t seconds = micros / 1000000;
  int64_t fraction = micros % 1000000;
  if (fraction < 0) {
    fraction += 1000000;
    seconds -= 1;
  }
  int64_t days = seconds / 86400;
  int64_t second_of_day = seconds % 86400;
  if (second_of_day < 0) {
    second_of_day += 86400;
    days -= 1;
  }
  // Civil date from days since 1970-01-01 (Howard Hinnant's days_from_civil, inverted);
  // rendering every timestamp of every answer through gmtime_r and snprintf was a hot spot.
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t day_of_era = days - era * 146097;
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t mp = (5 * day_of_year + 2) / 153;
  const int64_t day = day_of_year - (153 * mp + 2) / 5 + 1;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);

  char out[27];
  auto put = [&out](int at, int64_t value, int width) {
    for (int i = width - 1; i >= 0; --i) {
      out[at + i] = static_cast<char>('0' + value % 10);
      value /= 10;
    }
  };
  put(0, year, 4);
  out[4] = '-';
  put(5, month, 2);
  out[7] = '-';
  put(8, day, 2);
  out[10] = 'T';
  put(11, second_of_day / 3600, 2);
  out[13] = ':';
  put(14, second_of_day / 60 % 60, 2);
  out[16] = ':';
  put(17, second_of_day % 60, 2);
  out[19] = '.';
  put(20, fraction, 6);
  out[26] = 'Z';
  return std::string(out, sizeof out);
}

namespace {

// Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil).
int64_t daysFromCivil(int64_t year, int64_t month, int64_t day) {
  year -= month <= 2;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

// Reads exactly `width` digits at `at`.
bool digits(std::string_view text, std::size_t at, std::size_t width, int64_t& out) {
  if (at + width > text.size()) return false;
  out = 0;
  for (std::size_t i = at; i < at + width; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    out = out * 10 + (text[i] - '0');
  }
  return true;
}

}  // namespace

std::optional<ParsedTimestamp> parseTimestamp(std::string_view text) {
  int64_t year = 0, month = 0, day = 0;
  if (!digits(text, 0, 4, year) || text.size() < 10 || text[4] != '-' || text[7] != '-' ||
      !digits(text, 5, 2, month) || !digits(text, 8, 2, day)) {
    return std::nullopt;
  }
  static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (month < 1 || month > 12 || day < 1 || day > kDays[month - 1] ||
      (month == 2 && day == 29 && !leap)) {
    return std::nullopt;
  }
  ParsedTimestamp out;
  out.micros = daysFromCivil(year, month, day) * 86400 * 1000000;
  if (text.size() == 10) {
    out.date_only = true;
    return out;
  }
  int64_t hour = 0, minute = 0, second = 0;
  if ((text[10] != 'T' && text[10] != 't' && text[10] != ' ') || !digits(text, 11, 2, hour) ||
      text.size() < 16 || text[13] != ':' || !digits(text, 14, 2, minute) || hour > 23 ||
      minute > 59) {
    return std::nullopt;
  }
  std::size_t at = 16;
  int64_t fraction = 0;
  if (at < text.size() && text[at] == ':') {
    if (!digits(text, at + 1, 2, second) || second > 59) return std::nullopt;
    at += 3;
    if (at < text.size() && (text[at] == '.' || text[at] == ',')) {
      ++at;
      int64_t scale = 100000;
      std::size_t first = at;
      while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
        fraction += (text[at] - '0') * scale;
        scale /= 10;
        ++at;
      }
      if (at == first) return std::nullopt;
    }
  }
  int64_t offset_minutes = 0;
  if (at < text.size()) {
    if ((text[at] == 'Z' || text[at] == 'z') && at + 1 == text.size()) {
      at = text.size();
    } else if (text[at] == '+' || text[at] == '-') {
      int64_t oh = 0, om = 0;
      std::size_t next = at + 1;
      if (!digits(text, next, 2, oh)) return std::nullopt;
      next += 2;
      if (next < text.size() && text[next] == ':') ++next;
      if (!digits(text, next, 2, om) || next + 2 != text.size() || oh > 23 || om > 59) {
        return std::nullopt;
      }
      offset_minutes = (oh * 60 + om) * (text[at] == '-' ? -1 : 1);
      at = text.size();
    } else {
      return std::nullopt;
    }
  }
  out.micros += ((hour * 60 + minute - offset_minutes) * 60 + second) * 1000000 + fraction;
  return out;
}

}  // namespace feedback
