#include "services/responses/media/speech_synthesizer.h"

extern "C" {
#include <flite/flite.h>
cst_voice* register_cmu_us_slt(const char* voxdir);
}

#include <stdexcept>
#include <vector>

#include "services/responses/media/audio_decoder.h"

namespace feedback::responses {

SpeechSynthesizer::SpeechSynthesizer() {
  std::lock_guard lock(mutex_);
  flite_init();
  voice_ = register_cmu_us_slt(nullptr);
  if (!voice_) throw std::runtime_error("flite's slt voice is unavailable");
}

std::string SpeechSynthesizer::speak(std::string_view text) {
  const std::string copy(text);
  std::lock_guard lock(mutex_);
  cst_wave* wave = flite_text_to_wave(copy.c_str(), static_cast<cst_voice*>(voice_));
  if (!wave || cst_wave_num_samples(wave) <= 0) {
    if (wave) delete_wave(wave);
    throw std::runtime_error("flite rendered no speech");
  }
  std::vector<int16_t> samples(wave->samples, wave->samples + wave->num_samples);
  const int rate = wave->sample_rate;
  delete_wave(wave);
  return wavOf(samples, rate);
}

}  // namespace feedback::responses
