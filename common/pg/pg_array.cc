#include "common/pg/pg_array.h"

#include <stdexcept>

#include "common/core/ids.h"

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

}  // namespace

PgArray::PgArray(Element element) : element_(element), buffer_(kHeaderSize, '\0') {}

void PgArray::startElement(uint32_t length) {
  appendUint32(buffer_, length);
  ++size_;
}

PgArray& PgArray::add(std::string_view value) {
  if (element_ == Element::kUuid) {
    const auto uuid = uuidBytes(value);
    if (!uuid) throw std::invalid_argument("not a UUID");
    startElement(uuid->size());
    buffer_.append(reinterpret_cast<const char*>(uuid->data()), uuid->size());
    return *this;
  }
  if (element_ != Element::kText) throw std::invalid_argument("a string in a bigint array");
  startElement(static_cast<uint32_t>(value.size()));
  buffer_ += value;
  return *this;
}

PgArray& PgArray::add(int64_t value) {
  if (element_ != Element::kBigint) throw std::invalid_argument("a number in a non-bigint array");
  startElement(8);
  const auto bits = static_cast<uint64_t>(value);
  appendUint32(buffer_, static_cast<uint32_t>(bits >> 32));
  appendUint32(buffer_, static_cast<uint32_t>(bits));
  return *this;
}

PgArray& PgArray::addNull() {
  startElement(0xffffffff);  // -1: NULL
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
