#include "services/responses/media/transcriber.h"

#include <pocketsphinx.h>
#include <sphinxbase/ckd_alloc.h>
#include <sphinxbase/cmn.h>
#include <sphinxbase/feat.h>
#include <sphinxbase/ngram_model.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

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
// way, so they keep their defaults. Debian's pocketsphinx-en-us ships one word model
// (en-us.lm.bin, besides a model of phones): there is no larger one to try. Each whole
// recording starts from its own mean cepstrum (transcribe()), which takes out most of its
// gain and microphone, and the same recording reads the same whatever came before.
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

// A question's words get this share of each word's probability, the general model the rest:
// enough to pick "marigold" over "america on", too little to put hint words where none was
// said.
constexpr float kHintWeight = 0.05f;
// Only words the general model finds rare are made likelier (below 1 in 100,000: "indigo",
// "marigold", "refund", words it lacks); common ones ("tell us about your visit") it already
// expects, and boosting them cost flite's sentences 2 words of 231 and a third more CPU.
constexpr double kRareBelowLog10 = -5.0;
// Biased searches kept per decoder: each costs about 60 MB and half a second to make, so a
// worker keeps the last question's (recordings of one question tend to come together).
constexpr std::size_t kBiasedSearchesKept = 1;
constexpr const char* kGeneralSearch = "_default";

// The hints' distinct words, lowercase, sorted: letters and apostrophes only.
std::vector<std::string> hintWords(std::string_view hints) {
  std::vector<std::string> words;
  std::string word;
  for (std::size_t i = 0; i <= hints.size(); ++i) {
    const char c = i < hints.size() ? hints[i] : ' ';
    if (std::isalpha(static_cast<unsigned char>(c)) || (c == '\'' && !word.empty())) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!word.empty()) {
      while (!word.empty() && word.back() == '\'') word.pop_back();
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    }
  }
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  return words;
}

// A unigram model of `words` and the sentence end, each equally likely, in the ARPA format.
std::string unigramArpa(const std::vector<std::string>& words) {
  char probability[32];
  std::snprintf(probability, sizeof probability, "%.4f ",
                -std::log10(static_cast<double>(words.size() + 1)));
  std::string arpa = "\\data\\\nngram 1=" + std::to_string(words.size() + 2) +
                     "\n\n\\1-grams:\n-99 <s>\n" + probability + "</s>\n";
  for (const auto& word : words) arpa += probability + word + "\n";
  return arpa + "\n\\end\\\n";
}

// The model read from text: sphinxbase reads models from paths only, so from a memory file's.
ngram_model_t* readModel(cmd_ln_t* config, const std::string& text, logmath_t* lmath) {
  const int fd = memfd_create("hints.arpa", MFD_CLOEXEC);
  if (fd < 0) return nullptr;
  ngram_model_t* model = nullptr;
  if (write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size())) {
    const std::string path = "/proc/self/fd/" + std::to_string(fd);
    // The model takes a reference to the log tables, given back should it not be made.
    logmath_t* held = logmath_retain(lmath);
    model = ngram_model_read(config, path.c_str(), NGRAM_ARPA, held);
    if (!model) logmath_free(held);
  }
  close(fd);
  return model;
}

// The recording's own mean cepstrum (what batch CMN would subtract), from the decoder's
// front end; empty when it has no frames.
std::vector<mfcc_t> meanCepstrum(ps_decoder_t* ps, const int16_t* samples, std::size_t count) {
  fe_t* fe = ps_get_fe(ps);
  const auto width = static_cast<std::size_t>(ps_get_feat(ps)->cmn_struct->veclen);
  std::vector<mfcc_t> mean(width, 0);
  fe_start_stream(fe);
  fe_start_utt(fe);
  mfcc_t** frames = nullptr;
  int32 count_frames = 0;
  if (fe_process_utt(fe, samples, count, &frames, &count_frames) < 0 || count_frames <= 0) {
    if (frames) fe_free_2d(frames);
    return {};
  }
  for (int32 f = 0; f < count_frames; ++f) {
    for (std::size_t i = 0; i < width; ++i) mean[i] += frames[f][i];
  }
  for (auto& value : mean) value /= static_cast<mfcc_t>(count_frames);
  fe_free_2d(frames);
  std::vector<mfcc_t> rest(width);
  int32 left = 0;
  fe_end_utt(fe, rest.data(), &left);
  return mean;
}

}  // namespace

Transcriber::Transcriber(const TranscriberModel& model) : config_(configFor(model)) {
  decoder_ = ps_init(static_cast<cmd_ln_t*>(config_));
  if (!decoder_) {
    cmd_ln_free_r(static_cast<cmd_ln_t*>(config_));
    throw std::runtime_error("PocketSphinx cannot load its model from " + model.directory);
  }
  cmn_t* mean = ps_get_feat(decoderOf(decoder_))->cmn_struct;
  initial_mean_.resize(static_cast<std::size_t>(mean->veclen));
  cmn_live_get(mean, initial_mean_.data());
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

void Transcriber::searchFor(std::string_view hints) {
  ps_decoder_t* ps = decoderOf(decoder_);
  std::vector<std::string> words;
  ngram_model_t* general = ps_get_lm(ps, kGeneralSearch);
  for (auto& word : hintWords(hints)) {
    char* phones = ps_lookup_word(ps, word.c_str());
    if (!phones) continue;  // no pronunciation: it cannot be recognised
    ckd_free(phones);
    const char* unigram[1] = {word.c_str()};
    if (logmath_log_to_log10(ps_get_logmath(ps), ngram_prob(general, unigram, 1)) >=
        kRareBelowLog10) {
      continue;
    }
    words.push_back(std::move(word));
  }
  std::string key;
  for (const auto& word : words) key += word + ' ';
  if (key.empty()) {
    ps_set_search(ps, kGeneralSearch);
    return;
  }
  auto kept = std::find_if(biased_.begin(), biased_.end(),
                           [&](const auto& search) { return search.first == key; });
  if (kept != biased_.end()) {
    std::rotate(biased_.begin(), kept, kept + 1);
    ps_set_search(ps, biased_.front().second.c_str());
    return;
  }
  auto* config = static_cast<cmd_ln_t*>(config_);
  ngram_model_t* question = readModel(config, unigramArpa(words), ps_get_logmath(ps));
  if (!question) {
    ps_set_search(ps, kGeneralSearch);
    return;
  }
  // The set holds each model, and the search the set: each is let go here once given.
  ngram_model_t* models[2] = {general, question};
  char general_name[] = "general", question_name[] = "question";
  char* names[2] = {general_name, question_name};
  const float32 weights[2] = {1.0f - kHintWeight, kHintWeight};
  ngram_model_t* set = ngram_model_set_init(config, models, names, weights, 2);
  ngram_model_free(question);
  if (!set) {
    ps_set_search(ps, kGeneralSearch);
    return;
  }
  const std::string name = "hints" + std::to_string(++searches_made_);
  const int made = ps_set_lm(ps, name.c_str(), set);
  ngram_model_free(set);
  if (made != 0) {
    ps_set_search(ps, kGeneralSearch);
    return;
  }
  if (biased_.size() == kBiasedSearchesKept) {
    ps_unset_search(ps, biased_.back().second.c_str());
    biased_.pop_back();
  }
  biased_.emplace_front(key, name);
  ps_set_search(ps, name.c_str());
}

std::string Transcriber::transcribe(const int16_t* samples, std::size_t count,
                                    std::string_view hints) {
  ps_decoder_t* ps = decoderOf(decoder_);
  searchFor(hints);
  // The noise and channel estimates start afresh: a recording reads the same whichever came
  // before it (the channel's mean, kept across utterances for live streams, made the same
  // recording read "quick delivery" or "quick kill every" depending on what came before).
  const auto mean = meanCepstrum(ps, samples, count);
  ps_start_stream(ps);
  cmn_live_set(ps_get_feat(ps)->cmn_struct, mean.empty() ? initial_mean_.data() : mean.data());
  begin();
  ps_process_raw(ps, samples, count, FALSE, TRUE);
  std::string words = end();
  ps_set_search(ps, kGeneralSearch);
  return words;
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
