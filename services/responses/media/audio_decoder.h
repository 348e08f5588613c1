#pragma once
// Recordings as uploaded (WAV, WebM/Opus, Ogg/Opus: what the intake page and browsers'
// MediaRecorder produce) decoded with FFmpeg's libraries into what the recogniser takes:
// 16 kHz mono 16-bit PCM. Only these three containers are opened, chosen by content: a file
// that is not one of them, or in which no audio can be decoded, is refused with a reason a
// respondent can act on. A truncated recording gives the audio it holds.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace feedback::responses {

inline constexpr int kRecogniserSampleRate = 16000;

class AudioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct DecodedAudio {
  // "audio/wav", "audio/webm" or "audio/ogg": what the content is, whatever was declared.
  std::string content_type;
  // Of the audio decoded.
  double duration_seconds = 0;
  // 16 kHz mono, when asked for.
  std::vector<int16_t> samples;
};

// The container type of a recording from its first bytes; nullopt when it is none of the three.
std::optional<std::string> sniffAudioType(std::string_view head);

// Decodes the recording given in parts (in order, never joined). Stops with an AudioError once
// more than `max_seconds` are decoded. `keep_samples` false only measures the duration.
DecodedAudio decodeAudio(const std::vector<std::string_view>& parts, double max_seconds,
                         bool keep_samples);

// The same WebM recording, rewritten with its duration and an index of its clusters (Cues), so
// that a browser can seek in it: MediaRecorder writes neither, as it cannot go back to the
// header. The audio is copied, not re-encoded. AudioError when it is no WebM that can be read.
std::string seekableWebm(const std::vector<std::string_view>& parts);

// A 16-bit PCM WAV of 16 kHz mono samples.
std::string wavOf(const std::vector<int16_t>& samples, int sample_rate = kRecogniserSampleRate);

}  // namespace feedback::responses
