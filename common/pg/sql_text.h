#pragma once
// Pieces of SQL text and parameters that every PostgreSQL store writes the same way. Times
// cross the wire as microseconds since the epoch (int64), which both sides compute exactly,
// rather than as timestamp text each side would parse.

#include <string>

// A timestamptz column (or expression) as bigint microseconds since the epoch.
#define MICROS(column) "(extract(epoch FROM " column ") * 1000000)::bigint"
// Bigint microseconds since the epoch (a parameter such as "$3") as a timestamptz; the two
// halves serve statements that put the parameter's text together at run time.
#define FROM_MICROS_BEFORE "('epoch'::timestamptz + ("
#define FROM_MICROS_AFTER ")::bigint * interval '1 microsecond')"
#define FROM_MICROS(param) FROM_MICROS_BEFORE param FROM_MICROS_AFTER

namespace feedback::sql {

// A text parameter that is NULL unless `present`: libpqxx sends a null char pointer as NULL.
inline const char* nullUnless(bool present, const std::string& value) {
  return present ? value.c_str() : nullptr;
}

// A text parameter that is NULL when `value` is empty (an optional field of a message).
inline const char* nullIfEmpty(const std::string& value) {
  return nullUnless(!value.empty(), value);
}

}  // namespace feedback::sql
