#include "services/responses/media/content_types.h"

#include <catch2/catch.hpp>

using feedback::responses::contentMatchesType;
using namespace std::string_view_literals;

TEST_CASE("content types: signatures decide, not names", "[media]") {
  CHECK(contentMatchesType("application/pdf", "%PDF-1.7\n..."));
  CHECK(contentMatchesType("Application/PDF; charset=binary", "%PDF-1.7\n..."));
  CHECK_FALSE(contentMatchesType("application/pdf", "\x89PNG\r\n\x1a\n"sv));
  CHECK(contentMatchesType("image/png", "\x89PNG\r\n\x1a\n...."sv));
  CHECK(contentMatchesType("image/jpeg", "\xff\xd8\xff\xe0"sv));
  CHECK_FALSE(contentMatchesType("image/jpeg", "GIF89a"));
  CHECK(contentMatchesType("image/webp", "RIFF\x10\0\0\0WEBPVP8 "sv));
  CHECK_FALSE(contentMatchesType("image/webp", "RIFF\x10\0\0\0WAVEfmt "sv));
  CHECK(contentMatchesType("audio/wav", "RIFF\x10\0\0\0WAVEfmt "sv));
  CHECK(contentMatchesType("video/mp4",
                           "\0\0\0\x18"
                           "ftypmp42"sv));
  CHECK(contentMatchesType(
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "PK\x03\x04"sv));
  CHECK_FALSE(contentMatchesType(
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "%PDF-"));
  CHECK(contentMatchesType("audio/mpeg", "ID3\x04"sv));
  CHECK_FALSE(contentMatchesType("audio/mpeg", "OggS"));
}

TEST_CASE("content types: text holds no NUL; unknown types are taken as declared", "[media]") {
  CHECK(contentMatchesType("text/csv", "a,b\n1,2\n"));
  CHECK_FALSE(contentMatchesType("text/plain", "MZ\x90\0\x03"sv));
  CHECK(contentMatchesType("application/x-custom", "\0\1\2"sv));
  // Too short to carry its signature.
  CHECK_FALSE(contentMatchesType("application/pdf", "%P"));
}
