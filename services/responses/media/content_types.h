#pragma once
// What an uploaded file is, judged by its first bytes rather than its name or declared type:
// a file_upload question's allowed_types are checked against both.

#include <string_view>

namespace feedback::responses {

// How many first bytes contentMatchesType() looks at.
inline constexpr std::size_t kSniffBytes = 4096;

// Whether content starting with `head` is of the declared media type: types with a known
// signature (PDF, PNG, JPEG, GIF, WebP, the audio and video containers, ZIP-based documents)
// must carry it; text types must hold no NUL byte; other types are taken as declared.
bool contentMatchesType(std::string_view declared, std::string_view head);

}  // namespace feedback::responses
