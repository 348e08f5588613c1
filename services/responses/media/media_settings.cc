#include "services/responses/media/media_settings.h"

#include <algorithm>
#include <thread>

namespace feedback::responses {

MediaSettings readMediaSettings(Env& env) {
  MediaSettings s;
  s.secret = secretsKey(env);
  s.public_scheme = publicScheme(env);
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  s.transcription.workers = env.integer(
      "TRANSCRIPTION_WORKERS", std::max(1, cores / 2), 0, 64,
      {"recordings transcribed at once per process, each with a PocketSphinx decoder (about "
       "30 MB) and a PostgreSQL connection (0: this replica transcribes nothing)",
       "half the cores, at least 1"});
  s.live_streams =
      env.integer("LIVE_TRANSCRIPTIONS", 2, 0, 256,
                  {"live-transcription streams at once per process; more are refused (503)"});
  s.transcription.model.directory =
      env.text("POCKETSPHINX_MODEL_DIR", "/usr/share/pocketsphinx/model/en-us",
               {"the acoustic model, language model and dictionary of the recogniser"});
  s.blob_collection = std::chrono::milliseconds(env.integer(
      "BLOB_COLLECTION_MS", 600000, 100, 86400000,
      {"how often blobs no answer holds any more are looked for and deleted, an hour after "
       "their upload"}));
  return s;
}

}  // namespace feedback::responses
