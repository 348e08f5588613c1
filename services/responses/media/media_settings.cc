#include "services/responses/media/media_settings.h"

#include <algorithm>
#include <thread>

#include "common/net/api_server.h"

namespace feedback::responses {
namespace {

// API-CONTRACT section 14.
void readSpeechServer(Env& env, MediaSettings& s) {
  const std::string transcriber = env.choice(
      "TRANSCRIBER", "local", {"local", "openai"},
      {"who transcribes recordings: local (PocketSphinx, here) or openai (an OpenAI-compatible "
       "speech server, whose transcript replaces the local one when it arrives)"});
  SpeechServerSettings server;
  server.base_url = env.text(
      "STT_BASE_URL", "",
      {.meaning = "with openai: the speech server up to its version, e.g. http://host:8080/v1",
       .accepted = "an http(s) URL; required with openai"});
  server.model = env.text("STT_MODEL", "whisper-1", {"with openai: the speech model"});
  server.api_key = env.text("STT_API_KEY", "",
                            {"with openai: the server's bearer token (optional, never logged)"});
  server.timeout =
      std::chrono::milliseconds(env.integer("STT_TIMEOUT_MS", 120000, 100, 3600000,
                                            {"with openai: the deadline of one recording's call"}));
  server.ca_bundle = env.text("STT_CA_BUNDLE", "",
                              {"with openai: a PEM file of CAs trusted besides the system's"});
  s.speech_server_jobs.max_attempts =
      env.integer("STT_MAX_ATTEMPTS", 3, 1, 20,
                  {"with openai: calls per recording before the local transcript stands for good"});
  s.speech_server_jobs.retry_delay = std::chrono::milliseconds(
      env.integer("STT_RETRY_DELAY_MS", 5000, 1, 3600000,
                  {"with openai: the wait after a failed call, doubled each time"}));
  s.speech_server_jobs.workers =
      env.integer("STT_WORKERS", 2, 1, 64,
                  {"with openai: calls under way per process (a PostgreSQL connection each)"});
  if (transcriber != "openai") return;
  if (!net::isHttpUrl(server.base_url)) {
    env.problem(
        "STT_BASE_URL must be an http(s) URL such as http://127.0.0.1:8080/v1 when "
        "TRANSCRIBER=openai");
  }
  if (server.model.empty()) env.problem("STT_MODEL must not be empty when TRANSCRIBER=openai");
  s.speech_server = std::move(server);
}

}  // namespace

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
  readSpeechServer(env, s);
  return s;
}

}  // namespace feedback::responses
