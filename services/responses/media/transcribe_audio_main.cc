// transcribe_audio: decodes and transcribes recordings as the transcription workers do, one
// JSON line per file: its length, the CPU time the decoding and the recognition took, their
// ratio (the real-time factor) and the words. scripts/bench reports the real-time factor with
// it; anyone can hear what the recogniser makes of a recording. `--hints TEXT` first: words
// the question would make likelier (recognition_hints.h).
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

#include "common/core/json_writer.h"
#include "common/core/limits.h"
#include "services/responses/media/audio_decoder.h"
#include "services/responses/media/transcriber.h"

namespace {

double cpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace feedback::responses;
  int first = 1;
  std::string hints;
  if (argc > 2 && std::string_view(argv[1]) == "--hints") {
    hints = argv[2];
    first = 3;
  }
  if (argc <= first) {
    std::cerr << "usage: transcribe_audio [--hints TEXT] FILE... (WAV, WebM/Opus or Ogg/Opus)\n";
    return 2;
  }
  Transcriber transcriber({});
  int failed = 0;
  for (int i = first; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    std::string out;
    feedback::JsonWriter json(out);
    json.beginObject().field("file", std::string_view(argv[i]));
    try {
      const std::string content = bytes.str();
      const double started = cpuSeconds();
      auto audio = decodeAudio({content}, feedback::limits::kMaxRecordingSeconds, true);
      const std::string words =
          transcriber.transcribe(audio.samples.data(), audio.samples.size(), hints);
      const double took = cpuSeconds() - started;
      json.field("audio_seconds", audio.duration_seconds)
          .field("cpu_seconds", took)
          .field("real_time_factor", took / audio.duration_seconds)
          .field("transcription", words);
    } catch (const std::exception& e) {
      json.field("error", std::string_view(e.what()));
      ++failed;
    }
    json.endObject();
    std::cout << out << std::endl;
  }
  return failed ? 1 : 0;
}
