#pragma once

#include <string>
#include <string_view>

namespace feedback {

// Random (version 4) UUID, lowercase and hyphenated, from the secure generator.
std::string newUuid();
// A fast unique id for request tracing (not a secret).
std::string newRequestId();
// True for a lowercase, hyphenated UUID: the only form the API accepts in paths.
bool isUuid(std::string_view text);

}  // namespace feedback
