#pragma once
// The transcription workers: each claims a recording waiting for its transcription (queued in
// PostgreSQL with the recording, so none is lost to a restart, and any replica may do it),
// decodes it, transcribes it with a PocketSphinx decoder of its own, and fills the answer's
// transcription (MediaAnswers::applyTranscription), which is then searchable and judged like a
// typed answer. Workers are few and run at a lower CPU priority than request handling, so a
// burst of recordings slows transcriptions, not the API. A recording that keeps failing is
// given up after a few attempts with an empty transcription, so that its answer still ends.

#include <chrono>
#include <functional>
#include <string>

#include "common/core/counters.h"
#include "common/service/job_workers.h"
#include "services/responses/media/media_answers.h"
#include "services/responses/media/transcriber.h"

namespace feedback::responses {

struct TranscriptionSettings {
  std::string database_url;
  int workers = 1;
  std::chrono::milliseconds poll{1000};  // how often an idle worker looks for leftovers
  std::chrono::seconds lease{120};       // a claimed recording comes due again after this
  int max_attempts = 3;
  TranscriberModel model;
};

class TranscriptionJobs {
 public:
  // `server_queued` is called after each transcription: its recording may have been queued for
  // the speech server (speech_server_jobs.h).
  TranscriptionJobs(TranscriptionSettings settings, MediaAnswers& media, Counters& counters,
                    std::function<void()> server_queued = nullptr);

  // A recording was queued here: an idle worker looks at once.
  void wake() { workers_.wake(); }

 private:
  // False when nothing was due.
  bool runOne(pqxx::connection& connection);

  const TranscriptionSettings settings_;
  MediaAnswers& media_;
  Counters& counters_;
  const std::function<void()> server_queued_;
  // Last: its threads stop before what they use goes.
  service::JobWorkers workers_;
};

}  // namespace feedback::responses
