#include "services/responses/media/audio_decoder.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>
}

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>

namespace feedback::responses {
namespace {

constexpr int kIoBufferBytes = 64 * 1024;
// The recordings accepted: telephone quality to studio rates, mono to 7.1.
constexpr int kLowestSampleRate = 4000;
constexpr int kHighestSampleRate = 192000;
constexpr int kMostChannels = 8;

// libavformat's seek on an in-memory stream of `size` bytes at `position`: the size, or the
// new position (past the end only when `may_grow`, for a file being written).
int64_t seekIn(int64_t& position, int64_t size, int64_t offset, int whence, bool may_grow) {
  if (whence & AVSEEK_SIZE) return size;
  whence &= ~AVSEEK_FORCE;
  const int64_t target = whence == SEEK_SET   ? offset
                         : whence == SEEK_CUR ? position + offset
                         : whence == SEEK_END ? size + offset
                                              : -1;
  if (target < 0 || (!may_grow && target > size)) return AVERROR(EINVAL);
  position = target;
  return position;
}

// The recording's parts as one readable, seekable stream for libavformat.
struct PartsReader {
  const std::vector<std::string_view>& parts;
  int64_t size = 0;
  int64_t position = 0;

  int read(uint8_t* out, int wanted) {
    int given = 0;
    int64_t base = 0;
    for (auto part : parts) {
      const auto length = static_cast<int64_t>(part.size());
      if (given < wanted && position < base + length) {
        const int64_t offset = position - base;
        const int n = static_cast<int>(std::min<int64_t>(wanted - given, length - offset));
        std::memcpy(out + given, part.data() + offset, static_cast<std::size_t>(n));
        given += n;
        position += n;
      }
      base += length;
    }
    return given == 0 ? AVERROR_EOF : given;
  }

  int64_t seek(int64_t offset, int whence) { return seekIn(position, size, offset, whence, false); }
};

int readPacket(void* opaque, uint8_t* buffer, int size) {
  return static_cast<PartsReader*>(opaque)->read(buffer, size);
}

int64_t seekStream(void* opaque, int64_t offset, int whence) {
  return static_cast<PartsReader*>(opaque)->seek(offset, whence);
}

// The demuxer named by the content, never a guess of FFmpeg's among all it knows.
const char* demuxerOf(std::string_view type) {
  if (type == "audio/wav") return "wav";
  if (type == "audio/webm") return "matroska";
  return "ogg";
}

bool acceptedCodec(AVCodecID id) {
  switch (id) {
    case AV_CODEC_ID_OPUS:
    case AV_CODEC_ID_VORBIS:
    case AV_CODEC_ID_PCM_S16LE:
    case AV_CODEC_ID_PCM_S24LE:
    case AV_CODEC_ID_PCM_S32LE:
    case AV_CODEC_ID_PCM_U8:
    case AV_CODEC_ID_PCM_F32LE:
    case AV_CODEC_ID_PCM_ALAW:
    case AV_CODEC_ID_PCM_MULAW:
      return true;
    default:
      return false;
  }
}

struct FormatCloser {
  void operator()(AVFormatContext* c) const { avformat_close_input(&c); }
};
struct IoCloser {
  void operator()(AVIOContext* io) const {
    if (io) av_freep(&io->buffer);
    avio_context_free(&io);
  }
};
struct CodecCloser {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct ResamplerCloser {
  void operator()(SwrContext* s) const { swr_free(&s); }
};
struct FrameCloser {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};
struct PacketCloser {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};

void quietLibraries() {
  static std::once_flag once;
  std::call_once(once, [] { av_log_set_level(AV_LOG_QUIET); });
}

// Decoding state of one recording: decoder, resampler, and what came out so far.
class Decoding {
 public:
  Decoding(AVCodecContext* codec, double max_seconds, bool keep_samples)
      : codec_(codec), max_seconds_(max_seconds), keep_(keep_samples) {
    // What a microphone records. A header may claim anything: a rate of hundreds of MHz made
    // the resampler's set-up take seconds of CPU for a 47-byte upload (the audio_header fuzz
    // target's timeout).
    if (codec->sample_rate < kLowestSampleRate || codec->sample_rate > kHighestSampleRate ||
        codec->ch_layout.nb_channels < 1 || codec->ch_layout.nb_channels > kMostChannels) {
      throw AudioError("the recording's audio format is not supported (" +
                       std::to_string(codec->sample_rate) + " Hz, " +
                       std::to_string(codec->ch_layout.nb_channels) + " channels)");
    }
    // Measuring the duration needs no resampler.
    if (!keep_) return;
    AVChannelLayout mono = AV_CHANNEL_LAYOUT_MONO;
    SwrContext* resampler = nullptr;
    if (swr_alloc_set_opts2(&resampler, &mono, AV_SAMPLE_FMT_S16, kRecogniserSampleRate,
                            &codec->ch_layout, codec->sample_fmt, codec->sample_rate, 0,
                            nullptr) < 0 ||
        swr_init(resampler) < 0) {
      swr_free(&resampler);
      throw AudioError("the recording's audio format cannot be read");
    }
    resampler_.reset(resampler);
  }

  // False when the packet could not be decoded (a damaged part: what came before is kept).
  bool decode(const AVPacket* packet) {
    if (avcodec_send_packet(codec_, packet) < 0) return false;
    while (true) {
      int status = avcodec_receive_frame(codec_, frame_.get());
      if (status == AVERROR(EAGAIN) || status == AVERROR_EOF) return true;
      if (status < 0) return false;
      take(*frame_);
      av_frame_unref(frame_.get());
    }
  }

  double seconds() const { return static_cast<double>(input_samples_) / codec_->sample_rate; }
  std::vector<int16_t>& samples() { return samples_; }

 private:
  void take(const AVFrame& frame) {
    input_samples_ += frame.nb_samples;
    if (seconds() > max_seconds_) {
      throw AudioError("the recording is longer than " + std::to_string(int(max_seconds_)) +
                       " seconds");
    }
    if (!keep_) return;
    const int room = swr_get_out_samples(resampler_.get(), frame.nb_samples);
    if (room <= 0) return;
    const std::size_t at = samples_.size();
    samples_.resize(at + static_cast<std::size_t>(room));
    auto* out = reinterpret_cast<uint8_t*>(samples_.data() + at);
    int made = swr_convert(resampler_.get(), &out, room,
                           const_cast<const uint8_t**>(frame.extended_data), frame.nb_samples);
    samples_.resize(at + static_cast<std::size_t>(std::max(made, 0)));
  }

  AVCodecContext* codec_;
  std::unique_ptr<SwrContext, ResamplerCloser> resampler_;
  std::unique_ptr<AVFrame, FrameCloser> frame_{av_frame_alloc()};
  const double max_seconds_;
  const bool keep_;
  int64_t input_samples_ = 0;
  std::vector<int16_t> samples_;
};

}  // namespace

std::optional<std::string> sniffAudioType(std::string_view head) {
  if (head.size() >= 12 && head.substr(0, 4) == "RIFF" && head.substr(8, 4) == "WAVE") {
    return "audio/wav";
  }
  if (head.size() >= 4 && head.substr(0, 4) == "OggS") return "audio/ogg";
  if (head.size() >= 4 && head.substr(0, 4) == "\x1a\x45\xdf\xa3") return "audio/webm";
  return std::nullopt;
}

namespace {

// A recording opened with the demuxer its content names, and its audio stream found.
struct OpenedRecording {
  explicit OpenedRecording(const std::vector<std::string_view>& parts) : reader{parts} {}
  std::string type;
  PartsReader reader;
  std::unique_ptr<AVIOContext, IoCloser> io;
  std::unique_ptr<AVFormatContext, FormatCloser> format;
  int stream = -1;
  const AVCodec* decoder = nullptr;
};

std::unique_ptr<OpenedRecording> openRecording(const std::vector<std::string_view>& parts) {
  quietLibraries();
  std::string head;
  for (auto part : parts) {
    head.append(part.substr(0, 16 - std::min<std::size_t>(16, head.size())));
  }
  auto type = sniffAudioType(head);
  if (!type) throw AudioError("is not a recording in WAV, WebM or Ogg");
  auto opened = std::make_unique<OpenedRecording>(parts);
  opened->type = *type;
  for (auto part : parts) opened->reader.size += static_cast<int64_t>(part.size());
  auto* buffer = static_cast<unsigned char*>(av_malloc(kIoBufferBytes));
  opened->io.reset(avio_alloc_context(buffer, kIoBufferBytes, 0, &opened->reader, &readPacket,
                                      nullptr, &seekStream));
  if (!opened->io) {
    av_free(buffer);
    throw std::bad_alloc();
  }
  AVFormatContext* raw = avformat_alloc_context();
  raw->pb = opened->io.get();
  raw->flags |= AVFMT_FLAG_CUSTOM_IO;
  if (avformat_open_input(&raw, nullptr, av_find_input_format(demuxerOf(*type)), nullptr) < 0) {
    throw AudioError("is a damaged recording: its " + *type + " header cannot be read");
  }
  opened->format.reset(raw);
  avformat_find_stream_info(raw, nullptr);
  opened->stream = av_find_best_stream(raw, AVMEDIA_TYPE_AUDIO, -1, -1, &opened->decoder, 0);
  if (opened->stream < 0 || !opened->decoder || !acceptedCodec(opened->decoder->id)) {
    throw AudioError("holds no audio in a supported encoding (PCM, Opus or Vorbis)");
  }
  return opened;
}

// A growing in-memory file that libavformat's muxers may seek back into.
struct MemoryWriter {
  std::string data;
  int64_t position = 0;

  int write(const uint8_t* in, int size) {
    const auto end = static_cast<std::size_t>(position + size);
    if (end > data.size()) data.resize(end);
    std::memcpy(data.data() + position, in, static_cast<std::size_t>(size));
    position += size;
    return size;
  }

  int64_t seek(int64_t offset, int whence) {
    return seekIn(position, static_cast<int64_t>(data.size()), offset, whence, true);
  }
};

int writePacket(void* opaque, uint8_t* buffer, int size) {
  return static_cast<MemoryWriter*>(opaque)->write(buffer, size);
}

int64_t seekWriter(void* opaque, int64_t offset, int whence) {
  return static_cast<MemoryWriter*>(opaque)->seek(offset, whence);
}

struct OutputCloser {
  void operator()(AVFormatContext* c) const { avformat_free_context(c); }
};

}  // namespace

DecodedAudio decodeAudio(const std::vector<std::string_view>& parts, double max_seconds,
                         bool keep_samples) {
  const auto opened = openRecording(parts);
  AVFormatContext* format = opened->format.get();
  std::unique_ptr<AVCodecContext, CodecCloser> codec(avcodec_alloc_context3(opened->decoder));
  if (avcodec_parameters_to_context(codec.get(), format->streams[opened->stream]->codecpar) < 0 ||
      avcodec_open2(codec.get(), opened->decoder, nullptr) < 0 || codec->sample_rate <= 0) {
    throw AudioError("holds audio that cannot be decoded");
  }
  Decoding decoding(codec.get(), max_seconds, keep_samples);
  std::unique_ptr<AVPacket, PacketCloser> packet(av_packet_alloc());
  while (av_read_frame(format, packet.get()) >= 0) {
    if (packet->stream_index == opened->stream) decoding.decode(packet.get());
    av_packet_unref(packet.get());
  }
  decoding.decode(nullptr);
  if (decoding.seconds() <= 0) throw AudioError("holds no audio that can be decoded");
  return {opened->type, decoding.seconds(), std::move(decoding.samples())};
}

std::string seekableWebm(const std::vector<std::string_view>& parts) {
  const auto opened = openRecording(parts);
  if (opened->type != "audio/webm") throw AudioError("is not a WebM recording");
  const AVStream* in = opened->format->streams[opened->stream];
  AVFormatContext* raw = nullptr;
  if (avformat_alloc_output_context2(&raw, nullptr, "webm", nullptr) < 0) throw std::bad_alloc();
  std::unique_ptr<AVFormatContext, OutputCloser> out(raw);
  AVStream* audio = avformat_new_stream(out.get(), nullptr);
  if (!audio || avcodec_parameters_copy(audio->codecpar, in->codecpar) < 0) {
    throw std::bad_alloc();
  }
  audio->codecpar->codec_tag = 0;
  audio->time_base = in->time_base;
  MemoryWriter writer;
  auto* buffer = static_cast<unsigned char*>(av_malloc(kIoBufferBytes));
  std::unique_ptr<AVIOContext, IoCloser> io(
      avio_alloc_context(buffer, kIoBufferBytes, 1, &writer, nullptr, &writePacket, &seekWriter));
  if (!io) {
    av_free(buffer);
    throw std::bad_alloc();
  }
  out->pb = io.get();
  out->flags |= AVFMT_FLAG_CUSTOM_IO;
  if (avformat_write_header(out.get(), nullptr) < 0) {
    throw AudioError("cannot be written again as WebM");
  }
  std::unique_ptr<AVPacket, PacketCloser> packet(av_packet_alloc());
  while (av_read_frame(opened->format.get(), packet.get()) >= 0) {
    if (packet->stream_index == opened->stream) {
      packet->stream_index = 0;
      packet->pos = -1;
      av_packet_rescale_ts(packet.get(), in->time_base, audio->time_base);
      if (av_interleaved_write_frame(out.get(), packet.get()) < 0) {
        throw AudioError("cannot be written again as WebM");
      }
    }
    av_packet_unref(packet.get());
  }
  if (av_write_trailer(out.get()) < 0) throw AudioError("cannot be written again as WebM");
  avio_flush(io.get());
  return std::move(writer.data);
}

std::string wavOf(const std::vector<int16_t>& samples, int sample_rate) {
  auto le32 = [](std::string& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
  };
  auto le16 = [](std::string& out, uint16_t v) {
    out += static_cast<char>(v & 0xff);
    out += static_cast<char>(v >> 8);
  };
  const auto data_bytes = static_cast<uint32_t>(samples.size() * 2);
  std::string out;
  out.reserve(44 + data_bytes);
  out += "RIFF";
  le32(out, 36 + data_bytes);
  out += "WAVEfmt ";
  le32(out, 16);
  le16(out, 1);  // PCM
  le16(out, 1);  // mono
  le32(out, static_cast<uint32_t>(sample_rate));
  le32(out, static_cast<uint32_t>(sample_rate * 2));
  le16(out, 2);
  le16(out, 16);
  out += "data";
  le32(out, data_bytes);
  for (int16_t s : samples) le16(out, static_cast<uint16_t>(s));
  return out;
}

}  // namespace feedback::responses
