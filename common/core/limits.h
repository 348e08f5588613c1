#pragma once
// Size limits of what clients send, stated once (API-CONTRACT.md sections 1, 5 and 10).

#include <cstddef>
#include <string_view>

namespace feedback::limits {

// A JSON request body.
inline constexpr std::size_t kMaxJsonBodyBytes = 1024 * 1024;
inline constexpr std::string_view kMaxJsonBodyText = "1 MiB";
// A file_upload answer, whatever the question's max_size_mb says.
inline constexpr int kMaxFileUploadMiB = 25;
// An audio upload.
inline constexpr std::size_t kMaxAudioUploadBytes = 10 * 1024 * 1024;
// A typed answer (text, voice typed instead of recorded), in characters, unless the question
// sets max_characters.
inline constexpr std::size_t kMaxTextAnswerCharacters = 10000;
// A respondent's email address.
inline constexpr std::size_t kMaxEmailLength = 254;

}  // namespace feedback::limits
