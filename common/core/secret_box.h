#pragma once
// Encryption of secrets that must be usable later (webhook signing secrets), so that they are
// never stored in clear: AES-256-GCM with a key from the environment (SECRETS_KEY, base64 of
// 32 bytes). Sealed form: "v1:" + base64(nonce || ciphertext || tag).

#include <optional>
#include <string>
#include <string_view>

namespace feedback {

class SecretBox {
 public:
  // nullopt when `base64_key` is not base64 of exactly 32 bytes.
  static std::optional<SecretBox> fromBase64Key(std::string_view base64_key);

  std::string seal(std::string_view plaintext) const;
  // nullopt when `sealed` was not sealed with this key or was altered.
  std::optional<std::string> open(std::string_view sealed) const;

 private:
  explicit SecretBox(std::string key) : key_(std::move(key)) {}
  std::string key_;
};

}  // namespace feedback
