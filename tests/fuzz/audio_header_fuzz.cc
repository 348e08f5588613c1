// Uploaded files and recordings judged by their first bytes (services/responses/media/
// content_types.h, audio_decoder.h). The first input byte picks the declared type, the second
// where the upload is cut in two parts (uploads arrive in chunks), the rest is the content:
// any content matches its declared type or not; a recording is one of the three containers or
// none, and decodes (FFmpeg, the containers we open only) to at most the longest recording, or
// is refused with a reason; what decodes is 16 kHz mono as long as it says.
#include <array>
#include <cmath>

#include "services/responses/media/audio_decoder.h"
#include "services/responses/media/content_types.h"
#include "tests/fuzz/fuzz_check.h"

namespace r = feedback::responses;

namespace {

constexpr std::array<std::string_view, 10> kDeclared = {
    "audio/wav",  "audio/webm", "audio/ogg",       "application/pdf", "image/png",
    "image/jpeg", "video/mp4",  "application/zip", "text/plain",      "text/csv"};
constexpr double kMaxSeconds = 30;

void checkDecoded(const r::DecodedAudio& audio, std::string_view sniffed) {
  FUZZ_CHECK(audio.content_type == sniffed);
  FUZZ_CHECK(std::isfinite(audio.duration_seconds) && audio.duration_seconds >= 0);
  // A little past the limit at most: decoding stops at the frame that crosses it.
  FUZZ_CHECK(audio.duration_seconds <= kMaxSeconds + 1);
  const double expected = audio.duration_seconds * r::kRecogniserSampleRate;
  FUZZ_CHECK(std::abs(static_cast<double>(audio.samples.size()) - expected) <=
             0.05 * expected + r::kRecogniserSampleRate);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  if (size < 2) return 0;
  const std::string_view declared = kDeclared[data[0] % kDeclared.size()];
  const auto content = feedback::fuzz::asText(data + 2, size - 2);
  const std::size_t cut = content.empty() ? 0 : data[1] % (content.size() + 1);

  r::contentMatchesType(declared, content.substr(0, r::kSniffBytes));

  const auto sniffed = r::sniffAudioType(content.substr(0, r::kSniffBytes));
  if (!sniffed) return 0;
  FUZZ_CHECK(*sniffed == "audio/wav" || *sniffed == "audio/webm" || *sniffed == "audio/ogg");
  const std::vector<std::string_view> parts = {content.substr(0, cut), content.substr(cut)};
  try {
    checkDecoded(r::decodeAudio(parts, kMaxSeconds, true), *sniffed);
  } catch (const r::AudioError& e) {
    FUZZ_CHECK(*e.what() != '\0');
  }
  return 0;
}
