#pragma once
// The speech-server transcriber's workers (TRANSCRIBER=openai): each claims a recording whose
// local transcript is stored (responses.speech_server_jobs, FOR UPDATE SKIP LOCKED, leased
// past the call's deadline), sends it to the speech server as a 16 kHz mono WAV with its
// question's hints, and replaces the answer's transcription with the server's text
// (MediaAnswers::applyTranscription, so that insights follow it). A failed call (timeout, an
// error status, an answer without text) is tried again later, the wait doubling, up to
// `max_attempts` in all; then the local transcript stands, as it does at once when the server
// refuses the request itself (a 4xx other than 408 and 429). Jobs live in PostgreSQL, so they
// survive restarts, and any number of replicas may work them.

#include <chrono>
#include <string>

#include "common/core/counters.h"
#include "common/service/job_workers.h"
#include "services/responses/media/media_answers.h"
#include "services/responses/media/speech_server.h"

namespace feedback::responses {

struct SpeechServerJobSettings {
  std::string database_url;
  int workers = 2;  // calls under way at once in this process
  int max_attempts = 3;
  std::chrono::milliseconds retry_delay{5000};  // doubled after each failed attempt
  std::chrono::milliseconds poll{1000};         // how often an idle worker looks for jobs
};

class SpeechServerJobs {
 public:
  SpeechServerJobs(SpeechServerJobSettings settings, const SpeechServer& server,
                   std::chrono::milliseconds server_timeout, MediaAnswers& media,
                   Counters& counters);

  // A recording was queued here: an idle worker looks at once.
  void wake() { workers_.wake(); }

 private:
  // False when nothing was due.
  bool runOne(pqxx::connection& connection);
  // The recording as the server takes it; nullopt when it is gone or cannot be decoded.
  std::optional<std::string> wavOfJob(pqxx::connection& connection, const TranscriptionJob& job);

  const SpeechServerJobSettings settings_;
  const SpeechServer& server_;
  const std::chrono::milliseconds lease_;
  MediaAnswers& media_;
  Counters& counters_;
  // Last: its threads stop before what they use goes.
  service::JobWorkers workers_;
};

}  // namespace feedback::responses
