#include "services/responses/media/transcriber.h"

#include <pocketsphinx.h>

#include <stdexcept>

namespace feedback::responses {
namespace {

// The settings that differ from PocketSphinx's defaults, chosen on the LibriVox recordings
// of pocketsphinx-testdata (real speech, 71 words, none of whose text is in the model or the
// settings) and kept only if flite's sentences (231 words) and that package's other real
// recordings (35 words) got no worse. Errors, decoded as transcribe_audio decodes: with the
// defaults 19 / 18 / 1.
// - No fwdflat pass (18 / 18 / 1, and a sixth less CPU): its flat-lexicon second search,
//   scored with the same language model, turned words the first pass had right into
//   likelier ones.
// - The best path through the lattice weighs the language model 8.5 instead of 9.5 (13 /
//   18 / 1): the lattice now comes from the first pass, which searched at a weight of 6.5,
//   and 9.5 let the model override what was heard ("than he was" came out "many watts").
//   8.25 and 8.75 give 14 / 18 / 1, 8 gives 14 / 20 / 1.
// Beams, the search's language weight, insertion penalties, silence and filler
// probabilities, noise removal, voice activity thresholds and silence added after a
// recording moved LibriVox by a word or two either way and flite or the live path the other
// way, so they keep their defaults.
cmd_ln_t* configFor(const TranscriberModel& model) {
  const std::string hmm = model.directory + "/en-us";
  const std::string lm = model.directory + "/en-us.lm.bin";
  const std::string dict = model.directory + "/cmudict-en-us.dict";
  cmd_ln_t* config = cmd_ln_init(nullptr, ps_args(), TRUE, "-hmm", hmm.c_str(), "-lm", lm.c_str(),
                                 "-dict", dict.c_str(), "-fwdflat", "no", "-bestpathlw", "8.5",
                                 "-logfn", "/dev/null", nullptr);
  if (!config) throw std::runtime_error("PocketSphinx's model is missing in " + model.directory);
  return config;
}

ps_decoder_t* decoderOf(void* d) {
  return static_cast<ps_decoder_t*>(d);
}

}  // namespace

Transcriber::Transcriber(const TranscriberModel& model) : config_(configFor(model)) {
  decoder_ = ps_init(static_cast<cmd_ln_t*>(config_));
  if (!decoder_) {
    cmd_ln_free_r(static_cast<cmd_ln_t*>(config_));
    throw std::runtime_error("PocketSphinx cannot load its model from " + model.directory);
  }
}

Transcriber::~Transcriber() {
  ps_free(decoderOf(decoder_));
  cmd_ln_free_r(static_cast<cmd_ln_t*>(config_));
}

std::string Transcriber::hypothesis() {
  int32 score = 0;
  const char* words = ps_get_hyp(decoderOf(decoder_), &score);
  return words ? words : "";
}

std::string Transcriber::transcribe(const int16_t* samples, std::size_t count) {
  begin();
  ps_process_raw(decoderOf(decoder_), samples, count, FALSE, TRUE);
  return end();
}

void Transcriber::begin() {
  ps_start_utt(decoderOf(decoder_));
}

std::string Transcriber::feed(const int16_t* samples, std::size_t count) {
  ps_process_raw(decoderOf(decoder_), samples, count, FALSE, FALSE);
  return hypothesis();
}

std::string Transcriber::end() {
  ps_end_utt(decoderOf(decoder_));
  return hypothesis();
}

TranscriberPool::TranscriberPool(const TranscriberModel& model, int size)
    : model_(model), unmade_(size) {}

TranscriberPool::Lease::~Lease() {
  if (transcriber_) pool_->giveBack(std::move(transcriber_));
}

std::unique_ptr<TranscriberPool::Lease> TranscriberPool::tryBorrow() {
  std::unique_lock lock(mutex_);
  if (!free_.empty()) {
    auto t = std::move(free_.back());
    free_.pop_back();
    return std::make_unique<Lease>(*this, std::move(t));
  }
  if (unmade_ == 0) return nullptr;
  --unmade_;
  lock.unlock();
  try {
    return std::make_unique<Lease>(*this, std::make_unique<Transcriber>(model_));
  } catch (...) {
    lock.lock();
    ++unmade_;
    throw;
  }
}

void TranscriberPool::giveBack(std::unique_ptr<Transcriber> t) {
  std::lock_guard lock(mutex_);
  free_.push_back(std::move(t));
}

}  // namespace feedback::responses
