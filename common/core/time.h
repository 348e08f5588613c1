#pragma once

#include <cstdint>
#include <string>

namespace feedback {

// Microseconds since the Unix epoch, UTC.
int64_t nowMicros();
// "YYYY-MM-DDTHH:MM:SS.ffffffZ": always six fractional digits (API-CONTRACT.md section 1).
std::string formatTimestamp(int64_t micros);

}  // namespace feedback
