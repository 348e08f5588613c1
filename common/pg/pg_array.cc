#include "common/pg/pg_array.h"

#include <stdexcept>

namespace feedback {
namespace {

// Dimensions, a has-nulls flag, the element type, the size and the lower bound.
constexpr std::size_t kHeaderSize = 20;

// Network byte order, as the binary format wants every integer.
void writeUint32(char* out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>((value >> (24 - 8 * i)) & 0xff);
}

void appendUint32(std::string& out, uint32_t value) {
  char bytes[4];
  writeUint32(bytes, value);
  out.append(bytes, sizeof bytes);
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The 16 bytes of a hyphenated UUID (8-4-4-4-12 hex digits).
void parseUuid(std::string_view text, char (&out)[16]) {
  if (text.size() != 36) throw std::invalid_argument("not a UUID");
  std::size_t byte = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (text[i++] != '-') throw std::invalid_argument("not a UUID");
      continue;
    }
    const int high = hexValue(text[i]), low = hexValue(text[i + 1]);
    if (high < 0 || low < 0) throw std::invalid_argument("not a UUID");
    out[byte++] = static_cast<char>(high << 4 | low);
    i += 2;
  }
}

}  // namespace

PgArray::PgArray(Element element) : element_(element), buffer_(kHeaderSize, '\0') {}

void PgArray::appendLength(uint32_t length) {
  appendUint32(buffer_, length);
  ++size_;
}

PgArray& PgArray::add(std::string_view value) {
  if (element_ == Element::kUuid) {
    char uuid[16];
    parseUuid(value, uuid);
    appendLength(sizeof uuid);
    buffer_.append(uuid, sizeof uuid);
    return *this;
  }
  if (element_ != Element::kText) throw std::invalid_argument("a string in a bigint array");
  appendLength(static_cast<uint32_t>(value.size()));
  buffer_ += value;
  return *this;
}

PgArray& PgArray::add(int64_t value) {
  if (element_ != Element::kBigint) throw std::invalid_argument("a number in a non-bigint array");
  appendLength(8);
  const auto bits = static_cast<uint64_t>(value);
  appendUint32(buffer_, static_cast<uint32_t>(bits >> 32));
  appendUint32(buffer_, static_cast<uint32_t>(bits));
  return *this;
}

PgArray& PgArray::addNull() {
  appendLength(0xffffffff);  // -1: NULL
  has_nulls_ = true;
  return *this;
}

// An empty array has no dimension: its header is the first 12 bytes, and all it sends.
std::string_view PgArray::bytes() {
  char* header = buffer_.data();
  writeUint32(header, size_ == 0 ? 0 : 1);
  writeUint32(header + 4, has_nulls_ ? 1 : 0);
  writeUint32(header + 8, static_cast<uint32_t>(element_));
  if (size_ == 0) return std::string_view(buffer_).substr(0, 12);
  writeUint32(header + 12, static_cast<uint32_t>(size_));
  writeUint32(header + 16, 1);
  return buffer_;
}

pqxx::binarystring PgArray::param() {
  const auto all = bytes();
  return pqxx::binarystring(all.data(), all.size());
}

}  // namespace feedback
