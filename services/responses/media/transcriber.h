#pragma once
// Speech to text with PocketSphinx (its US English acoustic model, language model and
// dictionary from Debian's pocketsphinx-en-us). A decoder is not thread-safe and takes a
// moment and some 30 MB to load, so a Transcriber holds one and is used by one thread at a
// time; TranscriberPool lends them out (live transcription: one per stream).

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace feedback::responses {

struct TranscriberModel {
  std::string directory = "/usr/share/pocketsphinx/model/en-us";
};

class Transcriber {
 public:
  explicit Transcriber(const TranscriberModel& model);
  ~Transcriber();
  Transcriber(const Transcriber&) = delete;
  Transcriber& operator=(const Transcriber&) = delete;

  // The words of a whole recording (16 kHz mono), decoded from the same start whatever was
  // decoded before. The dictionary words of `hints` (recognition_hints.h: the question's
  // prompt, options and custom fields) are recognised more readily, never exclusively.
  std::string transcribe(const int16_t* samples, std::size_t count, std::string_view hints = {});

  // A recording as it arrives: begin(), then feed() with each piece (the best hypothesis so
  // far comes back), then end() for the final words.
  void begin();
  std::string feed(const int16_t* samples, std::size_t count);
  std::string end();

 private:
  std::string hypothesis();
  // Makes the search biased towards `hints` the decoder's (made once, about half a second and
  // 60 MB, kept for the last set of hints), or the general one when they name no rare word.
  void searchFor(std::string_view hints);

  void* config_ = nullptr;   // cmd_ln_t
  void* decoder_ = nullptr;  // ps_decoder_t
  // The channel estimate (cepstral mean) a fresh decoder starts from: each whole recording
  // starts from it too.
  std::vector<float> initial_mean_;
  // Biased searches made, most recently used first: the hints' words, and the search's name.
  std::deque<std::pair<std::string, std::string>> biased_;
  int searches_made_ = 0;
};

// At most a fixed number of transcribers, made on first use.
class TranscriberPool {
 public:
  TranscriberPool(const TranscriberModel& model, int size);

  class Lease {
   public:
    Lease(TranscriberPool& pool, std::unique_ptr<Transcriber> t)
        : pool_(&pool), transcriber_(std::move(t)) {}
    Lease(Lease&&) = default;
    ~Lease();
    Transcriber* operator->() { return transcriber_.get(); }

   private:
    TranscriberPool* pool_;
    std::unique_ptr<Transcriber> transcriber_;
  };

  // A lease at once, or null when every transcriber is lent out; never waits.
  std::unique_ptr<Lease> tryBorrow();

 private:
  void giveBack(std::unique_ptr<Transcriber> t);
  const TranscriberModel model_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Transcriber>> free_;
  int unmade_;
};

}  // namespace feedback::responses
