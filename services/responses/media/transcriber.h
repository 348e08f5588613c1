#pragma once
// Speech to text with PocketSphinx (its US English acoustic model, language model and
// dictionary from Debian's pocketsphinx-en-us). A decoder is not thread-safe and takes a
// moment and some 30 MB to load, so a Transcriber holds one and is used by one thread at a
// time; TranscriberPool lends them out (live transcription: one per stream).

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
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

  // The words of a whole recording (16 kHz mono).
  std::string transcribe(const int16_t* samples, std::size_t count);

  // A recording as it arrives: begin(), then feed() with each piece (the best hypothesis so
  // far comes back), then end() for the final words.
  void begin();
  std::string feed(const int16_t* samples, std::size_t count);
  std::string end();

 private:
  std::string hypothesis();
  void* config_ = nullptr;   // cmd_ln_t
  void* decoder_ = nullptr;  // ps_decoder_t
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
