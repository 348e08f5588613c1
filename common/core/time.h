#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace feedback {

// Microseconds since the Unix epoch, UTC.
int64_t nowMicros();
// "YYYY-MM-DDTHH:MM:SS.ffffffZ": always six fractional digits (docs/api.md "Wire rules").
std::string formatTimestamp(int64_t micros);

struct ParsedTimestamp {
  int64_t micros = 0;
  // Only a day was given (YYYY-MM-DD): micros is its first instant, UTC.
  bool date_only = false;
};

// ISO 8601 as clients write it: YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS[.fraction]] with Z, an
// offset (+HH:MM, +HHMM) or nothing (UTC); 'T' may be a space. nullopt when malformed.
std::optional<ParsedTimestamp> parseTimestamp(std::string_view text);

}  // namespace feedback
