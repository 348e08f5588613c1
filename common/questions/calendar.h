#pragma once
// Dates, clock times and instants as answers write them (docs/api.md "Question types"): what
// the date, time, datetime and date_range types accept, and how conditions compare them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace feedback::questions {

// A real calendar day written YYYY-MM-DD.
bool isCalendarDate(std::string_view text);
// A clock time written HH:MM, 24 hours.
bool isClockTime(std::string_view text);
// Microseconds since 1970-01-01T00:00:00Z of an ISO 8601 date and time with seconds optional,
// a fraction of up to 9 digits (cut to microseconds) and an offset or Z
// (2024-03-10T12:30:00+02:00); nullopt for anything else or a year outside 1..9999.
std::optional<int64_t> instantMicros(std::string_view text);
// An instant written in UTC with microseconds: 2024-03-10T10:30:00.000000Z.
std::string utcText(int64_t micros);

}  // namespace feedback::questions
