#pragma once
// The responses service's media settings, from the environment:
//   SECRETS_KEY              the deployment's secret, from which media URLs' signing key is
//                            derived (the gateway derives the same one)
//   PUBLIC_SCHEME            scheme of the media URLs in event payloads [https]
//   TRANSCRIPTION_WORKERS    recordings transcribed at once per process [half the cores, >= 1]
//   LIVE_TRANSCRIPTIONS      live transcription streams at once per process [2]
//   POCKETSPHINX_MODEL_DIR   the en-us model [/usr/share/pocketsphinx/model/en-us]
//   BLOB_COLLECTION_MS       how often blobs no answer holds are looked for [600000]

#include "common/core/config.h"
#include "services/responses/media/transcription_jobs.h"

namespace feedback::responses {

struct MediaSettings {
  std::string secret;
  std::string public_scheme = "https";
  TranscriptionSettings transcription;
  int live_streams = 2;
  std::chrono::milliseconds blob_collection{600000};
};

// Every problem goes to `env`.
MediaSettings readMediaSettings(Env& env);

}  // namespace feedback::responses
