#include "common/api/media_urls.h"

#include <catch2/catch.hpp>

using feedback::api::mediaMarker;
using feedback::api::MediaUrls;

namespace {

constexpr const char* kBlob = "123e4567-e89b-42d3-a456-426614174000";
constexpr const char* kWorkspace = "6f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f60";
constexpr const char* kOther = "6f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f61";
constexpr int64_t kNow = 1800000000;

std::string param(const std::string& url, const std::string& name) {
  auto at = url.find(name + "=");
  auto end = url.find('&', at);
  return url.substr(at + name.size() + 1,
                    end == std::string::npos ? end : end - at - name.size() - 1);
}

}  // namespace

TEST_CASE("media urls: absolute, signed for a workspace, an hour long", "[media]") {
  MediaUrls urls("secret", "https");
  const std::string url = urls.url(kBlob, "acme.example.com", kWorkspace, kNow);
  CHECK(url.rfind(std::string("https://acme.example.com/media/") + kBlob +
                      "?expires=1800003600&signature=",
                  0) == 0);
  const std::string expires = param(url, "expires");
  const std::string signature = param(url, "signature");
  CHECK(signature.find_first_of("+/=") == std::string::npos);
  CHECK(urls.verify(kBlob, kWorkspace, expires, signature, kNow));
  CHECK(urls.verify(kBlob, kWorkspace, expires, signature, kNow + 3600));
  // Expired; another workspace; another blob; an altered signature or expiry; another key.
  CHECK_FALSE(urls.verify(kBlob, kWorkspace, expires, signature, kNow + 3601));
  CHECK_FALSE(urls.verify(kBlob, kOther, expires, signature, kNow));
  CHECK_FALSE(
      urls.verify("123e4567-e89b-42d3-a456-426614174001", kWorkspace, expires, signature, kNow));
  std::string altered = signature;
  altered[10] = altered[10] == 'A' ? 'B' : 'A';
  CHECK_FALSE(urls.verify(kBlob, kWorkspace, expires, altered, kNow));
  CHECK_FALSE(urls.verify(kBlob, kWorkspace, "1800003601", signature, kNow));
  CHECK_FALSE(urls.verify(kBlob, kWorkspace, "", signature, kNow));
  CHECK_FALSE(urls.verify(kBlob, kWorkspace, "18e8", signature, kNow));
  CHECK_FALSE(
      MediaUrls("other secret", "https").verify(kBlob, kWorkspace, expires, signature, kNow));
  // Signed far ahead by whoever holds the key is still refused past the lifetime.
  const std::string far = urls.url(kBlob, "h", kWorkspace, kNow + 86400);
  CHECK_FALSE(urls.verify(kBlob, kWorkspace, param(far, "expires"), param(far, "signature"), kNow));
}

TEST_CASE("media urls: markers become addresses only where addresses go", "[media]") {
  MediaUrls urls("secret", "http");
  const std::string marker = mediaMarker(kBlob);
  const std::string stored = R"([{"value":{"file_name":"a.pdf","url":")" + marker +
                             R"("},"audio_url":")" + marker + R"("},{"value":")" + marker +
                             R"(","audio_url":null}])";
  const std::string out = urls.resolve(stored, "acme.localhost", kWorkspace, kNow);
  const std::string address = urls.url(kBlob, "acme.localhost", kWorkspace, kNow);
  CHECK(out == R"([{"value":{"file_name":"a.pdf","url":")" + address + R"("},"audio_url":")" +
                   address + R"("},{"value":")" + marker + R"(","audio_url":null}])");
  // Nothing to do: the same text back.
  CHECK(urls.resolve(R"({"url":"https://x"})", "h", kWorkspace, kNow) == R"({"url":"https://x"})");
  // A marker that is not followed by a whole uuid stays.
  CHECK(urls.resolve(R"({"url":"media:123"})", "h", kWorkspace, kNow) == R"({"url":"media:123"})");
}

TEST_CASE("media urls: an old payload's addresses are signed afresh, others left alone",
          "[media]") {
  const MediaUrls urls("secret", "https");
  const std::string blob2 = "223e4567-e89b-42d3-a456-426614174000";
  const std::string written =
      urls.resolve(std::string(R"({"answers":[{"audio_url":"media:)") + kBlob +
                       R"("},{"value":{"url":"media:)" + blob2 + R"("}}]})",
                   "acme.example.com", kWorkspace, kNow);
  // Two hours later the addresses have expired; refreshed, they work again, for an hour.
  const int64_t later = kNow + 7200;
  const std::string refreshed = urls.refresh(written, kWorkspace, later);
  CHECK(refreshed == urls.resolve(std::string(R"({"answers":[{"audio_url":"media:)") + kBlob +
                                      R"("},{"value":{"url":"media:)" + blob2 + R"("}}]})",
                                  "acme.example.com", kWorkspace, later));
  const std::string first = refreshed.substr(refreshed.find("https://"));
  CHECK(param(first, "expires") == std::to_string(later + 3600));
  CHECK(urls.verify(kBlob, kWorkspace, param(first, "expires"),
                    first.substr(first.find("signature=") + 10, 43), later));
  // Only addresses this deployment signed for this workspace, where addresses go.
  CHECK(urls.refresh(written, kOther, later) == written);
  CHECK(MediaUrls("other secret", "https").refresh(written, kWorkspace, later) == written);
  const std::string in_text =
      std::string(R"({"value":"see /media/)") + kBlob + "?expires=1&signature=x\"}";
  CHECK(urls.refresh(in_text, kWorkspace, later) == in_text);
  const std::string tampered = std::string(R"({"audio_url":"https://h/media/)") + kBlob +
                               R"(?expires=1800003600&signature=AAAA"})";
  CHECK(urls.refresh(tampered, kWorkspace, later) == tampered);
  CHECK(urls.refresh("{}", kWorkspace, later) == "{}");
}
