#include "common/core/secret_box.h"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

#include "common/core/crypto.h"

namespace feedback {
namespace {

constexpr std::size_t kKeySize = 32;
constexpr std::size_t kNonceSize = 12;
constexpr std::size_t kTagSize = 16;
constexpr std::string_view kPrefix = "v1:";

using Context = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

const unsigned char* bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

}  // namespace

std::optional<SecretBox> SecretBox::fromBase64Key(std::string_view base64_key) {
  auto key = crypto::base64Decode(base64_key);
  if (!key || key->size() != kKeySize) return std::nullopt;
  return SecretBox(std::move(*key));
}

std::string SecretBox::seal(std::string_view plaintext) const {
  std::string nonce = crypto::randomBytes(kNonceSize);
  std::string out = nonce;
  out.resize(kNonceSize + plaintext.size() + kTagSize);
  auto* cipher = reinterpret_cast<unsigned char*>(out.data()) + kNonceSize;
  Context ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
  int written = 0;
  if (!ctx ||
      EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, bytes(key_), bytes(nonce)) != 1 ||
      EVP_EncryptUpdate(ctx.get(), cipher, &written, bytes(plaintext),
                        static_cast<int>(plaintext.size())) != 1 ||
      EVP_EncryptFinal_ex(ctx.get(), cipher + written, &written) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagSize, cipher + plaintext.size()) !=
          1) {
    throw std::runtime_error("AES-256-GCM encryption failed");
  }
  return std::string(kPrefix) + crypto::base64Encode(out);
}

std::optional<std::string> SecretBox::open(std::string_view sealed) const {
  if (sealed.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  auto raw = crypto::base64Decode(sealed.substr(kPrefix.size()));
  if (!raw || raw->size() < kNonceSize + kTagSize) return std::nullopt;
  std::string_view all(*raw);
  std::string_view nonce = all.substr(0, kNonceSize);
  std::string_view cipher = all.substr(kNonceSize, all.size() - kNonceSize - kTagSize);
  std::string tag(all.substr(all.size() - kTagSize));
  std::string plain(cipher.size(), '\0');
  Context ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
  int written = 0;
  if (!ctx ||
      EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, bytes(key_), bytes(nonce)) != 1 ||
      EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(plain.data()), &written,
                        bytes(cipher), static_cast<int>(cipher.size())) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagSize, tag.data()) != 1 ||
      EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(plain.data()) + written,
                          &written) != 1) {
    return std::nullopt;
  }
  return plain;
}

}  // namespace feedback
