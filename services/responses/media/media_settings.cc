#include "services/responses/media/media_settings.h"

#include <algorithm>
#include <thread>

namespace feedback::responses {

MediaSettings readMediaSettings(Env& env) {
  MediaSettings s;
  s.secret = env.requiredText("SECRETS_KEY");
  s.public_scheme = env.text("PUBLIC_SCHEME", "https");
  if (s.public_scheme != "http" && s.public_scheme != "https") {
    env.problem("PUBLIC_SCHEME must be http or https");
  }
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  s.transcription.workers = env.integer("TRANSCRIPTION_WORKERS", std::max(1, cores / 2), 0, 64);
  s.live_streams = env.integer("LIVE_TRANSCRIPTIONS", 2, 0, 256);
  s.transcription.model.directory =
      env.text("POCKETSPHINX_MODEL_DIR", "/usr/share/pocketsphinx/model/en-us");
  s.blob_collection =
      std::chrono::milliseconds(env.integer("BLOB_COLLECTION_MS", 600000, 100, 86400000));
  return s;
}

}  // namespace feedback::responses
