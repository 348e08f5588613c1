#include "services/responses/media/audio_decoder.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>

#include "services/responses/media/transcriber.h"

namespace {

using feedback::responses::AudioError;
using feedback::responses::decodeAudio;
using feedback::responses::sniffAudioType;
using feedback::responses::wavOf;

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(MEDIA_FIXTURES) + "/" + name, std::ios::binary);
  REQUIRE(in);
  std::stringstream out;
  out << in.rdbuf();
  return out.str();
}

// A PCM WAV of a 440 Hz tone, any rate and channel count.
std::string tone(double seconds, int rate, int channels) {
  std::vector<int16_t> samples;
  const int frames = static_cast<int>(seconds * rate);
  for (int i = 0; i < frames; ++i) {
    auto s = static_cast<int16_t>(8000 * std::sin(2 * M_PI * 440 * i / rate));
    for (int c = 0; c < channels; ++c) samples.push_back(s);
  }
  std::string wav = wavOf(samples, rate);
  // wavOf writes mono headers: set the channel count and the rates that follow from it.
  auto put16 = [&](std::size_t at, uint16_t v) {
    wav[at] = static_cast<char>(v & 0xff);
    wav[at + 1] = static_cast<char>(v >> 8);
  };
  auto put32 = [&](std::size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) wav[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
  };
  put16(22, static_cast<uint16_t>(channels));
  put32(28, static_cast<uint32_t>(rate * 2 * channels));
  put16(32, static_cast<uint16_t>(2 * channels));
  return wav;
}

feedback::responses::DecodedAudio decode(const std::string& bytes, double max = 3600) {
  return decodeAudio({bytes}, max, true);
}

}  // namespace

TEST_CASE("audio: containers are told by content", "[audio]") {
  CHECK(sniffAudioType(fixture("spoken.wav")) == "audio/wav");
  CHECK(sniffAudioType(fixture("spoken.webm")) == "audio/webm");
  CHECK(sniffAudioType(fixture("spoken.ogg")) == "audio/ogg");
  CHECK_FALSE(sniffAudioType("%PDF-1.4 not audio"));
  CHECK_FALSE(sniffAudioType("RIFF\x10\0\0\0WEBP"));
}

TEST_CASE("audio: WAV, WebM/Opus and Ogg/Opus decode to 16 kHz mono", "[audio]") {
  for (const char* name : {"spoken.wav", "spoken.webm", "spoken.ogg"}) {
    INFO(name);
    auto audio = decode(fixture(name));
    CHECK(audio.duration_seconds == Approx(2.055).margin(0.03));
    CHECK(audio.samples.size() == Approx(2.055 * 16000).margin(0.03 * 16000));
  }
}

TEST_CASE("audio: other rates and stereo are resampled and mixed down", "[audio]") {
  auto audio = decode(tone(1.5, 44100, 2));
  CHECK(audio.content_type == "audio/wav");
  CHECK(audio.duration_seconds == Approx(1.5).margin(0.001));
  CHECK(audio.samples.size() == Approx(24000).margin(200));
  int16_t loudest = 0;
  for (auto s : audio.samples) loudest = std::max<int16_t>(loudest, s);
  CHECK(loudest > 6000);
}

TEST_CASE("audio: given in parts, decoded as one", "[audio]") {
  const std::string whole = fixture("spoken.webm");
  std::vector<std::string_view> parts;
  for (std::size_t at = 0; at < whole.size(); at += 1000) {
    parts.push_back(std::string_view(whole).substr(at, 1000));
  }
  auto audio = decodeAudio(parts, 3600, false);
  CHECK(audio.duration_seconds == Approx(2.055).margin(0.03));
  CHECK(audio.samples.empty());
}

TEST_CASE("audio: truncated recordings keep what they hold; lying ones are refused", "[audio]") {
  const std::string wav = fixture("spoken.wav");
  // The header says 2 s; half of the data came.
  auto half = decode(wav.substr(0, 44 + (wav.size() - 44) / 2));
  CHECK(half.duration_seconds == Approx(1.03).margin(0.05));
  const std::string webm = fixture("spoken.webm");
  auto cut = decode(webm.substr(0, webm.size() * 2 / 3));
  CHECK(cut.duration_seconds > 0.3);
  CHECK(cut.duration_seconds < 2.0);
  CHECK_THROWS_AS(decode(wav.substr(0, 30)), AudioError);
  CHECK_THROWS_AS(decode(webm.substr(0, 40)), AudioError);
  CHECK_THROWS_AS(decode("%PDF-1.4\n% not audio at all"), AudioError);
  // A RIFF/WAVE header with no samples at all.
  CHECK_THROWS_AS(decode(wavOf({})), AudioError);
  // Ogg pages of nothing.
  CHECK_THROWS_AS(decode(std::string("OggS") + std::string(200, '\0')), AudioError);
}

TEST_CASE("audio: decoding stops past the longest allowed", "[audio]") {
  CHECK_THROWS_AS(decode(tone(3, 16000, 1), 2.0), AudioError);
  CHECK_NOTHROW(decode(tone(1.9, 16000, 1), 2.0));
}

TEST_CASE("audio: WebM as MediaRecorder writes it is stored with its duration and cues",
          "[audio]") {
  using feedback::responses::seekableWebm;
  // Made by ffmpeg into a pipe, as MediaRecorder makes it: it could not go back to write them.
  const std::string unindexed = fixture("unindexed.webm");
  const std::string cues("\x1c\x53\xbb\x6b", 4), duration("\x44\x89", 2);
  REQUIRE(unindexed.find(cues) == std::string::npos);
  REQUIRE(unindexed.find(duration) == std::string::npos);
  const std::string indexed = seekableWebm({unindexed});
  CHECK(indexed.find(cues) != std::string::npos);
  CHECK(indexed.find(duration) != std::string::npos);
  // The same audio, not re-encoded.
  const auto before = decodeAudio({unindexed}, 60, true);
  const auto after = decodeAudio({indexed}, 60, true);
  CHECK(after.content_type == "audio/webm");
  CHECK(after.samples == before.samples);
  CHECK(indexed.size() < unindexed.size() + 1024);
  CHECK_THROWS_AS(seekableWebm({fixture("spoken.ogg")}), AudioError);
  CHECK_THROWS_AS(seekableWebm({std::string_view("not audio")}), AudioError);
}

TEST_CASE("transcriber: a flite recording in each container reads back its words",
          "[audio][transcriber]") {
  feedback::responses::Transcriber transcriber({});
  const auto wav = decode(fixture("spoken.wav"));
  // Live, from a decoder that decoded nothing before (as a live stream's first): fed in 100 ms
  // pieces, a hypothesis grows before the end. Its channel estimate starts from the model's,
  // so its last words may differ: the stored transcription comes from a whole decode.
  transcriber.begin();
  std::string partial;
  for (std::size_t at = 0; at + 1600 <= wav.samples.size(); at += 1600) {
    auto hypothesis = transcriber.feed(wav.samples.data() + at, 1600);
    if (partial.empty()) partial = hypothesis;
  }
  CHECK_FALSE(partial.empty());
  CHECK(transcriber.end().starts_with("thank you for the quick"));
  // Whole recordings read the same whatever the decoder did before.
  for (int round = 0; round < 2; ++round) {
    for (const char* name : {"spoken.wav", "spoken.webm", "spoken.ogg"}) {
      INFO(name);
      auto audio = decode(fixture(name));
      CHECK(transcriber.transcribe(audio.samples.data(), audio.samples.size()) ==
            "thank you for the quick delivery");
    }
  }
}

TEST_CASE("transcriber: a question's words are recognised more readily, never forced",
          "[audio][transcriber]") {
  feedback::responses::Transcriber transcriber({});
  const auto audio = decode(fixture("spoken.wav"));
  const auto read = [&](std::string_view hints) {
    return transcriber.transcribe(audio.samples.data(), audio.samples.size(), hints);
  };
  // Hints of other words leave what was said as it was heard, and so do words not in the
  // dictionary, punctuation and repeats.
  CHECK(read("Which plan did you choose? Indigo, marigold, juniper.") ==
        "thank you for the quick delivery");
  CHECK(read("Xyzzyq, plugh!! delivery delivery DELIVERY's") == "thank you for the quick delivery");
  CHECK(read("") == "thank you for the quick delivery");
}

// Found by the audio_header fuzz target: a 47-byte WAV claiming 637 MHz and 49 channels made
// the resampler's set-up take seconds of CPU, also when only the duration was measured.
TEST_CASE("audio: rates and channel counts no microphone records are refused at once", "[audio]") {
  std::string wav = tone(0.1, 16000, 1);
  auto put32 = [&wav](std::size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) wav[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
  };
  put32(24, 637550208);
  CHECK_THROWS_AS(decodeAudio({wav}, 30, false), AudioError);
  CHECK_THROWS_AS(decodeAudio({wav}, 30, true), AudioError);
  CHECK_THROWS_AS(decode(tone(0.1, 16000, 49)), AudioError);
  CHECK_NOTHROW(decode(tone(0.1, 8000, 2)));
  CHECK_NOTHROW(decode(tone(0.1, 48000, 6)));
}
