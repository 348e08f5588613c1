#pragma once
// Size limits of what clients send, stated once (docs/api.md "Limits").

#include <cstddef>
#include <string>

namespace feedback::limits {

// A JSON request body.
inline constexpr std::size_t kMaxJsonBodyBytes = 1024 * 1024;
// A file_upload answer, whatever the question's max_size_mb says.
inline constexpr int kMaxFileUploadMiB = 25;
// A WAV recording, and a live stream's PCM.
inline constexpr std::size_t kMaxAudioUploadBytes = 10 * 1024 * 1024;
// The longest recording any question takes (a voice question's max_duration at most).
inline constexpr double kMaxRecordingSeconds = 3600;
// An Opus recording (WebM or Ogg) may hold the question's max_duration at this rate (64
// kbit/s), never less than a WAV may and never more than kMaxCompressedAudioUploadBytes: an
// hour's answer fits (questions::maxRecordingBytes).
inline constexpr std::size_t kCompressedAudioBytesPerSecond = 8000;
inline constexpr std::size_t kMaxCompressedAudioUploadBytes = 32 * 1024 * 1024;
// A typed answer (text, voice typed instead of recorded), in characters, unless the question
// sets max_characters.
inline constexpr std::size_t kMaxTextAnswerCharacters = 10000;
// A respondent's email address.
inline constexpr std::size_t kMaxEmailLength = 254;

// "1 MiB", "512 KiB": a byte count as people read it, for error messages.
inline std::string describeBytes(std::size_t bytes) {
  if (bytes % (1024 * 1024) == 0) return std::to_string(bytes / (1024 * 1024)) + " MiB";
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace feedback::limits
