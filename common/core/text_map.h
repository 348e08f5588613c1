#pragma once
// Text as a key: maps looked up by std::string_view without a copy of it, and FNV-1a, a hash
// of short text that is fast and the same in every process and version (ids made from it are
// stored).

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace feedback {

struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const {
    return std::hash<std::string_view>{}(text);
  }
};

template <class V>
using TextMap = std::unordered_map<std::string, V, TextHash, std::equal_to<>>;

// FNV-1a, 64 bits.
constexpr std::uint64_t fnv1a64(std::string_view text) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ULL;
  return hash;
}

}  // namespace feedback
