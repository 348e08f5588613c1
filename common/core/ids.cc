#include "common/core/ids.h"

#include <algorithm>
#include <chrono>
#include <random>

#include "common/core/crypto.h"

namespace feedback {
namespace {

std::string formatUuid(const unsigned char* b) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[b[i] >> 4];
    out += kHex[b[i] & 0xf];
  }
  return out;
}

// The value of a hex digit of either case; -1 for any other character.
int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string newUuid() {
  std::string bytes = crypto::randomBytes(16);
  auto* b = reinterpret_cast<unsigned char*>(bytes.data());
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
  return formatUuid(b);
}

std::string newTimeOrderedUuid() {
  std::string bytes = crypto::randomBytes(16);
  auto* b = reinterpret_cast<unsigned char*>(bytes.data());
  const auto millis = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                std::chrono::system_clock::now().time_since_epoch())
                                                .count());
  for (int i = 0; i < 6; ++i) b[i] = static_cast<unsigned char>(millis >> (8 * (5 - i)));
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x70);
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
  return formatUuid(b);
}

std::string newRequestId() {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  unsigned char b[16];
  uint64_t hi = engine(), lo = engine();
  for (int i = 0; i < 8; ++i) {
    b[i] = static_cast<unsigned char>(hi >> (8 * i));
    b[8 + i] = static_cast<unsigned char>(lo >> (8 * i));
  }
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
  return formatUuid(b);
}

std::optional<std::array<unsigned char, 16>> uuidBytes(std::string_view text) {
  if (text.size() != 36) return std::nullopt;
  std::array<unsigned char, 16> out{};
  std::size_t byte = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (text[i++] != '-') return std::nullopt;
      continue;
    }
    const int high = hexDigit(text[i]), low = hexDigit(text[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    out[byte++] = static_cast<unsigned char>(high << 4 | low);
    i += 2;
  }
  return out;
}

bool isUuid(std::string_view text) {
  return uuidBytes(text) &&
         std::none_of(text.begin(), text.end(), [](char c) { return c >= 'A' && c <= 'F'; });
}

namespace {
constexpr std::size_t kReportTokenBytes = 32;
constexpr std::size_t kReportTokenLength = 43;
}  // namespace

std::string newReportToken() {
  return crypto::base64UrlEncode(crypto::randomBytes(kReportTokenBytes));
}

bool isReportToken(std::string_view text) {
  if (text.size() != kReportTokenLength) return false;
  for (char c : text) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

}  // namespace feedback
