#pragma once
// Prompts read aloud with flite's `slt` voice (the one PocketSphinx understands best), as
// 16-bit mono WAV. flite is not safe to call from two threads at once: calls take turns.

#include <mutex>
#include <string>
#include <string_view>

namespace feedback::responses {

// The name of the voice, part of what a rendering is cached under.
inline constexpr std::string_view kSpeechVoice = "flite-slt";

class SpeechSynthesizer {
 public:
  SpeechSynthesizer();
  // A WAV of `text` read aloud. Throws std::runtime_error when flite renders nothing.
  std::string speak(std::string_view text);

 private:
  std::mutex mutex_;
  void* voice_ = nullptr;  // cst_voice, owned by flite for the life of the process
};

}  // namespace feedback::responses
