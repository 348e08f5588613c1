#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace feedback {

// Random (version 4) UUID, lowercase and hyphenated, from the secure generator.
std::string newUuid();
// A version 7 UUID: the creation time in milliseconds, then 74 random bits. Rows keyed by
// it are inserted at the end of their index instead of anywhere, which keeps write-heavy
// tables' indexes small and cached. It shows when it was made.
std::string newTimeOrderedUuid();
// A fast unique id for request tracing (not a secret).
std::string newRequestId();
// True for a lowercase, hyphenated UUID: the only form the API accepts in paths.
bool isUuid(std::string_view text);
// The 16 bytes of a hyphenated UUID (8-4-4-4-12 hex digits, either case, as PostgreSQL reads
// them); nullopt for any other text.
std::optional<std::array<unsigned char, 16>> uuidBytes(std::string_view text);

// A shared report's token (docs/api.md "Shared reports"): 32 random bytes, base64url without
// padding (43 characters), the last segment of /r/<token>.
std::string newReportToken();
bool isReportToken(std::string_view text);

}  // namespace feedback
