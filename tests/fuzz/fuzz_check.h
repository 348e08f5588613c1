#pragma once
// What a fuzz target asserts about its code beyond "no crash, no sanitizer report": a broken
// invariant aborts, so that libFuzzer keeps the input that broke it.

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace feedback::fuzz {

[[noreturn]] inline void invariantBroken(const char* what, const char* file, int line) {
  std::fprintf(stderr, "fuzz: invariant broken: %s (%s:%d)\n", what, file, line);
  std::abort();
}

inline std::string_view asText(const unsigned char* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace feedback::fuzz

// A macro, so that the report names the condition as written.
#define FUZZ_CHECK(condition) \
  ((condition) ? void(0) : ::feedback::fuzz::invariantBroken(#condition, __FILE__, __LINE__))
