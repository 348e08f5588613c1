#pragma once
// The responses service's media settings, from the environment:
//   SECRETS_KEY              the deployment's secret, from which media URLs' signing key is
//                            derived (the gateway derives the same one)
//   PUBLIC_SCHEME            scheme of the media URLs in event payloads [https]
//   TRANSCRIPTION_WORKERS    recordings transcribed at once per process [half the cores, >= 1]
//   LIVE_TRANSCRIPTIONS      live transcription streams at once per process [2]
//   POCKETSPHINX_MODEL_DIR   the en-us model [/usr/share/pocketsphinx/model/en-us]
//   BLOB_COLLECTION_MS       how often blobs no answer holds are looked for [600000]
//   TRANSCRIBER              local (PocketSphinx only) or openai (a speech server's
//                            transcript replaces the local one when it arrives) [local]
//   STT_BASE_URL, STT_MODEL, STT_API_KEY, STT_TIMEOUT_MS, STT_MAX_ATTEMPTS,
//   STT_RETRY_DELAY_MS, STT_WORKERS, STT_CA_BUNDLE   the speech server (API-CONTRACT section 14)

#include <optional>

#include "common/core/config.h"
#include "services/responses/media/speech_server_jobs.h"
#include "services/responses/media/transcription_jobs.h"

namespace feedback::responses {

struct MediaSettings {
  std::string secret;
  std::string public_scheme = "https";
  TranscriptionSettings transcription;
  int live_streams = 2;
  std::chrono::milliseconds blob_collection{600000};
  // Set with TRANSCRIBER=openai.
  std::optional<SpeechServerSettings> speech_server;
  SpeechServerJobSettings speech_server_jobs;
};

// Every problem goes to `env`.
MediaSettings readMediaSettings(Env& env);

}  // namespace feedback::responses
