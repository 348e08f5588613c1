#include "services/responses/media/content_types.h"

#include <array>
#include <string>

#include "common/core/ascii.h"

namespace feedback::responses {
namespace {

struct Signature {
  std::string_view type;
  std::size_t offset;
  std::string_view bytes;
  // A second mark some formats carry further on (RIFF's form type).
  std::size_t offset2 = 0;
  std::string_view bytes2 = {};
};

using namespace std::string_view_literals;

constexpr std::array kSignatures = {
    Signature{"application/pdf", 0, "%PDF-"sv},
    Signature{"image/png", 0, "\x89PNG\r\n\x1a\n"sv},
    Signature{"image/jpeg", 0, "\xff\xd8\xff"sv},
    Signature{"image/gif", 0, "GIF8"sv},
    Signature{"image/webp", 0, "RIFF"sv, 8, "WEBP"sv},
    Signature{"audio/wav", 0, "RIFF"sv, 8, "WAVE"sv},
    Signature{"audio/x-wav", 0, "RIFF"sv, 8, "WAVE"sv},
    Signature{"audio/wave", 0, "RIFF"sv, 8, "WAVE"sv},
    Signature{"audio/ogg", 0, "OggS"sv},
    Signature{"audio/webm", 0, "\x1a\x45\xdf\xa3"sv},
    Signature{"video/webm", 0, "\x1a\x45\xdf\xa3"sv},
    Signature{"audio/flac", 0, "fLaC"sv},
    Signature{"video/mp4", 4, "ftyp"sv},
    Signature{"audio/mp4", 4, "ftyp"sv},
    Signature{"application/zip", 0, "PK\x03\x04"sv},
    Signature{"application/gzip", 0, "\x1f\x8b"sv},
};

bool has(std::string_view head, std::size_t offset, std::string_view bytes) {
  return head.size() >= offset + bytes.size() && head.substr(offset, bytes.size()) == bytes;
}

}  // namespace

bool contentMatchesType(std::string_view declared, std::string_view head) {
  const std::string type = asciiLowercase(declared.substr(0, declared.find(';')));
  // Office documents are ZIP archives.
  if (type.rfind("application/vnd.openxmlformats-", 0) == 0 ||
      type.rfind("application/vnd.oasis.opendocument.", 0) == 0) {
    return has(head, 0, "PK\x03\x04"sv);
  }
  if (type == "audio/mpeg") {
    return has(head, 0, "ID3"sv) ||
           (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0xff &&
            (static_cast<unsigned char>(head[1]) & 0xe0) == 0xe0);
  }
  for (const auto& s : kSignatures) {
    if (s.type != type) continue;
    return has(head, s.offset, s.bytes) && (s.bytes2.empty() || has(head, s.offset2, s.bytes2));
  }
  if (type.rfind("text/", 0) == 0 || type == "application/json") {
    return head.find('\0') == std::string_view::npos;
  }
  return true;
}

}  // namespace feedback::responses
