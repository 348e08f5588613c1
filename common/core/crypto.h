#pragma once
// Thin wrappers over OpenSSL: hashing, MACs, encoding and secure randomness.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace feedback::crypto {

// Lowercase hex SHA-256 of `data`.
std::string sha256Hex(std::string_view data);
// SHA-256 of content given in parts.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(std::string_view part);
  // Lowercase hex of the parts so far; ends the hash.
  std::string hex();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Lowercase hex SHA-1 of `data`: only where a protocol names it (Redis script ids), never for
// secrets.
std::string sha1Hex(std::string_view data);
// Raw 32-byte HMAC-SHA256.
std::string hmacSha256(std::string_view key, std::string_view data);
std::string base64Encode(std::string_view bytes);
// base64url (RFC 4648 section 5) without padding: for URLs.
std::string base64UrlEncode(std::string_view bytes);
// nullopt when `text` is not valid standard base64.
std::optional<std::string> base64Decode(std::string_view text);
std::string toHex(std::string_view bytes);
// Cryptographically secure; throws std::runtime_error when the RNG fails.
std::string randomBytes(std::size_t count);
// [A-Za-z0-9]{count}, uniformly distributed (rejection sampling).
std::string randomBase62(std::size_t count);
// Compares in time independent of where the inputs differ.
bool constantTimeEquals(std::string_view a, std::string_view b);

}  // namespace feedback::crypto
