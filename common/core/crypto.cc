#include "common/core/crypto.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <pthread.h>

#include <cstring>
#include <stdexcept>

namespace feedback::crypto {

std::string toHex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(bytes.size() * 2, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    auto b = static_cast<unsigned char>(bytes[i]);
    out[2 * i] = kHex[b >> 4];
    out[2 * i + 1] = kHex[b & 0xf];
  }
  return out;
}

std::string sha256Hex(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return toHex(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

struct Sha256::State {
  EVP_MD_CTX* context = EVP_MD_CTX_new();
  ~State() { EVP_MD_CTX_free(context); }
};

Sha256::Sha256() : state_(std::make_unique<State>()) {
  if (!state_->context || EVP_DigestInit_ex(state_->context, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("SHA-256 is unavailable");
  }
}

Sha256::~Sha256() = default;

void Sha256::update(std::string_view part) {
  EVP_DigestUpdate(state_->context, part.data(), part.size());
}

std::string Sha256::hex() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(state_->context, digest, &length);
  return toHex(std::string_view(reinterpret_cast<const char*>(digest), length));
}

std::string sha1Hex(std::string_view data) {
  unsigned char digest[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return toHex(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

std::string hmacSha256(std::string_view key, std::string_view data) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
            reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &length)) {
    throw std::runtime_error("HMAC-SHA256 failed");
  }
  return std::string(reinterpret_cast<const char*>(mac), length);
}

std::string base64Encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()),
                                static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(written));
  return out;
}

std::string base64UrlEncode(std::string_view bytes) {
  std::string out = base64Encode(bytes);
  while (!out.empty() && out.back() == '=') out.pop_back();
  for (auto& c : out) {
    if (c == '+') c = '-';
    if (c == '/') c = '_';
  }
  return out;
}

std::optional<std::string> base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out(3 * text.size() / 4, '\0');
  int written = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()),
                                static_cast<int>(text.size()));
  if (written < 0) return std::nullopt;
  // EVP_DecodeBlock counts padding as zero bytes; drop them.
  std::size_t padding = 0;
  if (!text.empty() && text.back() == '=') ++padding;
  if (text.size() > 1 && text[text.size() - 2] == '=') ++padding;
  out.resize(static_cast<std::size_t>(written) - padding);
  return out;
}

namespace {

void fillRandom(unsigned char* out, std::size_t count) {
  if (RAND_bytes(out, static_cast<int>(count)) != 1) {
    throw std::runtime_error("secure random generator failed");
  }
}

// Each RAND_bytes call costs a lock and a DRBG update whatever its size, and identifiers
// take 16 bytes at a time (several per response): bytes are drawn 4 KiB at a time into a
// pool per thread. Bytes handed out are wiped from the pool.
struct RandomPool {
  static constexpr std::size_t kSize = 4096;
  unsigned char bytes[kSize];
  std::size_t next = kSize;  // bytes before it are used

  void take(unsigned char* out, std::size_t count) {
    if (kSize - next < count) {
      fillRandom(bytes, kSize);
      next = 0;
    }
    std::memcpy(out, bytes + next, count);
    OPENSSL_cleanse(bytes + next, count);
    next += count;
  }
  void empty() {
    OPENSSL_cleanse(bytes, kSize);
    next = kSize;
  }
};

thread_local RandomPool t_random_pool;

// A forked child's only thread is the one that forked: emptying its pool keeps parent and
// child from handing out the same bytes.
void emptyPoolAfterFork() {
  t_random_pool.empty();
}

}  // namespace

std::string randomBytes(std::size_t count) {
  static const bool fork_safe = pthread_atfork(nullptr, nullptr, emptyPoolAfterFork) == 0;
  std::string out(count, '\0');
  auto* bytes = reinterpret_cast<unsigned char*>(out.data());
  if (fork_safe && count <= RandomPool::kSize / 4) {
    t_random_pool.take(bytes, count);
  } else {
    fillRandom(bytes, count);
  }
  return out;
}

std::string randomBase62(std::size_t count) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::string out;
  out.reserve(count);
  while (out.size() < count) {
    for (unsigned char b : randomBytes(count)) {
      // 248 = 4 * 62: bytes above it would bias the first characters.
      if (b < 248 && out.size() < count) out += kAlphabet[b % 62];
    }
  }
  return out;
}

bool constantTimeEquals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace feedback::crypto
