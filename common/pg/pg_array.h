#pragma once
// PostgreSQL arrays in the binary wire format: many rows' values sent as one parameter of one
// statement (INSERT ... SELECT FROM unnest($1::text[], ...)), so that a batch of rows costs
// one round trip and one executor start instead of one per row. Binary rather than a quoted
// literal: the server then copies each element instead of scanning every character for
// quotes and backslashes (array_in was a sixth of PostgreSQL's time in the W4 bench).

#include <cstdint>
#include <pqxx/binarystring>
#include <string>
#include <string_view>

namespace feedback {

class PgArray {
 public:
  // The element types in use, by their PostgreSQL type OIDs: the server refuses an array
  // whose element type is not the one the statement casts it to.
  enum class Element : uint32_t { kBigint = 20, kText = 25, kUuid = 2950 };

  explicit PgArray(Element element);

  // A text element, or a UUID in its hyphenated form (std::invalid_argument if it is not).
  PgArray& add(std::string_view value);
  // A bigint element.
  PgArray& add(int64_t value);
  PgArray& addNull();

  // The array in the binary format of array_send: what `param()` sends.
  std::string_view bytes();
  // The array as a parameter that libpqxx sends in binary format.
  pqxx::binarystring param();
  std::size_t size() const { return size_; }

 private:
  // Counts an element and writes its length (0xffffffff: NULL); its bytes follow.
  void startElement(uint32_t length);

  Element element_;
  // The header's place (written by bytes(), once the size is known), then the elements.
  std::string buffer_;
  std::size_t size_ = 0;
  bool has_nulls_ = false;
};

}  // namespace feedback
