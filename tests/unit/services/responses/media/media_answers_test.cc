#include "services/responses/media/media_answers.h"

#include "services/responses/media/audio_decoder.h"
#include "tests/unit/services/responses/responses_fixture.h"

namespace {

using namespace responses_test;
using feedback::responses::BlobInfo;
using feedback::responses::MediaAnswers;
using feedback::responses::TranscriptionJob;

// Blobs in memory, with the chunks they were given.
class FakeBlobs final : public feedback::responses::BlobStore {
 public:
  struct Blob {
    BlobInfo info;
    std::string content;
    std::optional<TranscriptionJob> job;
  };
  std::map<std::string, Blob> blobs;

  void put(const BlobInfo& info, const std::vector<std::string_view>& content,
           const TranscriptionJob* transcribe) override {
    Blob b{info, {}, std::nullopt};
    for (auto part : content) b.content += part;
    b.info.size_bytes = static_cast<int64_t>(b.content.size());
    if (transcribe) {
      b.job = *transcribe;
      b.job->blob = b.info;
    }
    blobs[info.uuid] = b;
  }
  std::optional<BlobInfo> read(const std::string& ws, const std::string& uuid,
                               const std::function<void(std::string_view)>& chunk) override {
    auto it = blobs.find(uuid);
    if (it == blobs.end() || it->second.info.workspace_uuid != ws) return std::nullopt;
    chunk(it->second.content);
    return it->second.info;
  }
  std::vector<std::string> hastened;
  void transcribeNow(const std::string&, const std::string& uuid) override {
    hastened.push_back(uuid);
  }
  void remove(const std::string& ws, const std::string& uuid) override {
    auto it = blobs.find(uuid);
    if (it != blobs.end() && it->second.info.workspace_uuid == ws) blobs.erase(it);
  }
};

std::string silence(double seconds) {
  return feedback::responses::wavOf(
      std::vector<int16_t>(static_cast<std::size_t>(seconds * 16000), 0));
}

const std::string kPdf = "%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n";

struct MediaFixture : Fixture {
  FakeBlobs blobs;
  int queued = 0;
  MediaAnswers media{service, [this] { ++queued; }};

  MediaFixture() {
    auto& l = change();
    *l.add_questions() = question("said", "voice", R"({"max_duration": 5})", "{}", true);
    *l.add_questions() = question("doc", "file_upload",
                                  R"({"allowed_types": ["application/pdf"], "max_size_mb": 1})");
  }

  v1::Answer upload(const v1::StartResponseResponse& s, const char* key, v1::MediaKind kind,
                    const std::string& body, const char* type, std::string token = {},
                    int64_t declared = 0) {
    v1::MediaUploadHeader h;
    auto* t = h.mutable_target();
    *t->mutable_link() = link;
    t->set_response_uuid(s.uuid());
    t->set_token(token.empty() ? s.token() : token);
    t->set_field_key(key);
    h.set_kind(kind);
    h.set_content_type(type);
    h.set_file_name("C:\\Users\\ada\\invoice.pdf");
    h.set_size_bytes(declared);
    return media.upload(store, blobs, h, {body});
  }
};

}  // namespace

TEST_CASE("media: a file is stored and answers with a marker in place of its address", "[media]") {
  MediaFixture f;
  auto s = f.start();
  auto a = f.upload(s, "doc", v1::MEDIA_KIND_FILE, kPdf, "application/pdf");
  auto value = boost::json::parse(a.value_json()).as_object();
  CHECK(value.at("file_name") == "invoice.pdf");
  CHECK(value.at("content_type") == "application/pdf");
  CHECK(value.at("size_bytes") == static_cast<int64_t>(kPdf.size()));
  const std::string marker(value.at("url").as_string());
  REQUIRE(marker.rfind("media:", 0) == 0);
  REQUIRE(f.blobs.blobs.count(marker.substr(6)) == 1);
  CHECK(f.blobs.blobs.at(marker.substr(6)).content == kPdf);
  CHECK_FALSE(f.blobs.blobs.at(marker.substr(6)).job);
  CHECK(feedback::responses::blobOfAnswer(a) == marker.substr(6));
  // Kept through the submit, whose record and event carry it.
  f.save(s, "said", R"("typed instead of recorded")");
  auto record = f.submit(s).response();
  CHECK(byKey(record).at("doc").value_json() == a.value_json());
}

TEST_CASE("media: refusals leave nothing stored", "[media]") {
  MediaFixture f;
  auto s = f.start();
  using K = v1::MediaKind;
  CHECK(failure([&] {
          f.upload(s, "doc", K::MEDIA_KIND_FILE, "\x89PNG\r\n\x1a\n", "image/png");
        }).first == ErrorCode::kInvalidAnswer);
  CHECK(failure([&] {
          f.upload(s, "doc", K::MEDIA_KIND_FILE, "\x89PNG\r\n\x1a\n", "application/pdf");
        }).first == ErrorCode::kInvalidAnswer);
  CHECK(failure([&] {
          f.upload(s, "doc", K::MEDIA_KIND_FILE, kPdf + std::string(1024 * 1024, 'x'),
                   "application/pdf");
        }).first == ErrorCode::kPayloadTooLarge);
  CHECK(failure([&] { f.upload(s, "doc", K::MEDIA_KIND_FILE, "", "application/pdf"); }).first ==
        ErrorCode::kInvalidAnswer);
  CHECK(failure([&] { f.upload(s, "said", K::MEDIA_KIND_FILE, kPdf, "application/pdf"); }).first ==
        ErrorCode::kInvalidAnswer);
  CHECK(failure([&] { f.upload(s, "doc", K::MEDIA_KIND_AUDIO, silence(1), "audio/wav"); }).first ==
        ErrorCode::kInvalidAnswer);
  CHECK(failure([&] { f.upload(s, "said", K::MEDIA_KIND_AUDIO, silence(6), "audio/wav"); }).first ==
        ErrorCode::kInvalidAnswer);
  CHECK(failure([&] { f.upload(s, "said", K::MEDIA_KIND_AUDIO, kPdf, "audio/wav"); }).first ==
        ErrorCode::kInvalidAnswer);
  CHECK(failure([&] {
          f.upload(s, "said", K::MEDIA_KIND_AUDIO, std::string(10 * 1024 * 1024 + 1, 'x'),
                   "audio/wav");
        }).first == ErrorCode::kPayloadTooLarge);
  CHECK(failure([&] {
          f.upload(s, "said", K::MEDIA_KIND_AUDIO, silence(1), "audio/wav", "bad");
        }).first == ErrorCode::kNotFound);
  // Cut short on the way: fewer bytes than were declared.
  CHECK(failure([&] {
          f.upload(s, "doc", K::MEDIA_KIND_FILE, kPdf, "application/pdf", {},
                   static_cast<int64_t>(kPdf.size()) + 100);
        }).first == ErrorCode::kInvalidAnswer);
  CHECK(failure([&] { f.upload(s, "nope", K::MEDIA_KIND_AUDIO, silence(1), "audio/wav"); }).first ==
        ErrorCode::kNotFound);
  // A typed file value may name a file elsewhere, never a stored one: a marker is no address.
  CHECK(failure([&] {
          f.save(s, "doc",
                 R"({"file_name": "a.pdf", "content_type": "application/pdf", "size_bytes": 1,
                     "url": "media:6f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f61"})");
        }).first == ErrorCode::kInvalidAnswer);
  f.submit(s, {{"said", R"("typed instead")"}});
  CHECK(failure([&] { f.upload(s, "said", K::MEDIA_KIND_AUDIO, silence(1), "audio/wav"); }).first ==
        ErrorCode::kResponseAlreadySubmitted);
  CHECK(f.blobs.blobs.empty());
}

TEST_CASE("media: a recording answers a required voice question and is transcribed later",
          "[media]") {
  MediaFixture f;
  auto s = f.start();
  auto a = f.upload(s, "said", v1::MEDIA_KIND_AUDIO, silence(2.5), "audio/wav");
  CHECK(a.duration() == Approx(2.5));
  CHECK_FALSE(a.has_transcription());
  CHECK(a.value_json().empty());
  CHECK(f.queued == 1);
  const std::string blob = *feedback::responses::blobOfAnswer(a);
  // Due only once the answer that holds it is saved.
  CHECK(f.blobs.hastened == std::vector<std::string>{blob});
  REQUIRE(f.blobs.blobs.at(blob).job);
  const TranscriptionJob job = *f.blobs.blobs.at(blob).job;
  CHECK(job.response_uuid == s.uuid());
  CHECK(job.field_key == "said");

  auto record = f.submit(s).response();
  CHECK(byKey(record).at("said").audio_url() == "media:" + blob);

  REQUIRE(f.media.applyTranscription(f.store, job, "the support team was wonderful"));
  auto stored =
      feedback::responses::parseAnswers(f.store.rows.at(s.uuid()).response.answers_json());
  const auto& said = *std::find_if(stored.begin(), stored.end(),
                                   [](const v1::Answer& x) { return x.field_key() == "said"; });
  CHECK(said.transcription() == "the support team was wonderful");
  CHECK(said.ai_insights_json().find("\"sentiment\":\"positive\"") != std::string::npos);
  // A completed response's change is counted, so that gateways drop pages without it.
  CHECK(f.publisher.published.size() == 2);
}

TEST_CASE("media: a new recording replaces the old, whose transcription then changes nothing",
          "[media]") {
  MediaFixture f;
  auto s = f.start();
  auto first = f.upload(s, "said", v1::MEDIA_KIND_AUDIO, silence(1), "audio/wav");
  const std::string old_blob = *feedback::responses::blobOfAnswer(first);
  const TranscriptionJob old_job = *f.blobs.blobs.at(old_blob).job;
  auto second = f.upload(s, "said", v1::MEDIA_KIND_AUDIO, silence(2), "audio/wav");
  CHECK(second.uuid() == first.uuid());
  CHECK(f.blobs.blobs.count(old_blob) == 0);
  CHECK_FALSE(f.media.applyTranscription(f.store, old_job, "stale words"));
  // A typed answer replaces a recording too.
  f.save(s, "said", R"("typed after all")");
  auto record = f.submit(s).response();
  CHECK_FALSE(byKey(record).at("said").has_audio_url());
  CHECK(byKey(record).at("said").value_json() == R"("typed after all")");
}

TEST_CASE("media: a live recording is stored with its transcription", "[media]") {
  MediaFixture f;
  auto s = f.start();
  v1::AnswerTarget target;
  *target.mutable_link() = f.link;
  target.set_response_uuid(s.uuid());
  target.set_token(s.token());
  target.set_field_key("said");
  auto a = f.media.saveLiveRecording(f.store, f.blobs, target, std::vector<int16_t>(24000, 0),
                                     "call me back");
  CHECK(a.duration() == Approx(1.5));
  CHECK(a.transcription() == "call me back");
  const auto& blob = f.blobs.blobs.at(*feedback::responses::blobOfAnswer(a));
  CHECK(blob.info.content_type == "audio/wav");
  CHECK(blob.content.size() == 44 + 48000);
  // Transcribed whole later, as an upload is; the live words stand until then.
  CHECK(f.queued == 1);
  REQUIRE(blob.job);
  CHECK(f.blobs.hastened == std::vector<std::string>{blob.info.uuid});
  // Nothing heard, or a transcription given up, leaves the live words.
  CHECK_FALSE(f.media.applyTranscription(f.store, *blob.job, ""));
  auto stored =
      feedback::responses::parseAnswers(f.store.rows.at(s.uuid()).response.answers_json());
  CHECK(stored[0].transcription() == "call me back");
  REQUIRE(f.media.applyTranscription(f.store, *blob.job, "call me back please"));
  stored = feedback::responses::parseAnswers(f.store.rows.at(s.uuid()).response.answers_json());
  CHECK(stored[0].transcription() == "call me back please");
}

TEST_CASE("media: with a speech server, recordings go to it once transcribed here", "[media]") {
  MediaFixture f;
  MediaAnswers with_server{f.service, [&f] { ++f.queued; }, true};
  auto s = f.start();
  v1::AnswerTarget target;
  *target.mutable_link() = f.link;
  target.set_response_uuid(s.uuid());
  target.set_token(s.token());
  target.set_field_key("said");
  const auto goesToServer = [&](const v1::Answer& answer) {
    const auto& blob = f.blobs.blobs.at(*feedback::responses::blobOfAnswer(answer));
    REQUIRE(blob.job);
    CHECK(blob.job->speech_server);
    CHECK(blob.job->blob.workspace_uuid == f.link.workspace_uuid());
    CHECK(blob.job->response_uuid == s.uuid());
    CHECK(with_server.recognitionHintsFor(*blob.job) == "Prompt of said");
  };
  // A live recording, then an upload that replaces it: each job says the server comes next.
  goesToServer(with_server.saveLiveRecording(f.store, f.blobs, target,
                                             std::vector<int16_t>(16000, 0), "call me back"));
  v1::MediaUploadHeader h;
  *h.mutable_target() = target;
  h.set_kind(v1::MEDIA_KIND_AUDIO);
  h.set_content_type("audio/wav");
  const std::string recording = silence(1);
  goesToServer(with_server.upload(f.store, f.blobs, h, {recording}));
  // Without one, the job says not.
  const auto local = f.upload(s, "said", v1::MEDIA_KIND_AUDIO, silence(1), "audio/wav");
  CHECK_FALSE(f.blobs.blobs.at(*feedback::responses::blobOfAnswer(local)).job->speech_server);
}
