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

}  // namespace feedback
