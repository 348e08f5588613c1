// LinksService on an in-memory store: what the rules decide, whatever the storage.
#include <catch2/catch.hpp>
#include <map>

#include "common/core/crypto.h"
#include "common/core/errors.h"
#include "services/links/links_service.h"

namespace links = feedback::links;
namespace v1 = feedback::links::v1;
using feedback::ApiError;
using feedback::ErrorCode;

namespace {

constexpr const char* kWorkspace = "6f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f60";

class FakeStore final : public links::LinksStore {
 public:
  std::map<std::string, std::pair<std::string, v1::Link>> rows;  // uuid -> (workspace, link)
  std::map<std::string, links::OnFinished> on_finished;          // link uuid -> its on_finished
  // What the links table's triggers queue (migration 005).
  std::vector<links::WebhookChange> changes;

  InsertOutcome insertLink(const std::string& ws, int, const std::string& slug_base, v1::Link& link,
                           const links::OnFinished& finished) override {
    if (link.slug().empty()) link.set_slug(slug_base);
    for (const auto& [_, row] : rows) {
      if (row.first == ws && row.second.slug() == link.slug()) return InsertOutcome::kSlugTaken;
    }
    link.set_version(1);
    rows[link.uuid()] = {ws, link};
    if (!finished.webhook_url.empty()) {
      on_finished[link.uuid()] = finished;
      changes.push_back({ws, link.uuid(), finished.webhook_url, finished.sealed_secret});
    }
    return InsertOutcome::kInserted;
  }
  UpdateOutcome updateLink(const std::string&, const std::string&,
                           const std::function<bool(v1::Link&)>&, v1::Link&,
                           const std::function<void(int64_t)>&) override {
    return UpdateOutcome::kNotFound;
  }
  std::optional<v1::Link> findLink(const std::string& ws, const std::string& uuid) override {
    auto it = rows.find(uuid);
    if (it == rows.end() || it->second.first != ws) return std::nullopt;
    return it->second.second;
  }
  std::optional<v1::Link> findLinkBySlug(const std::string& ws, const std::string& slug) override {
    for (const auto& [_, row] : rows) {
      if (row.first == ws && row.second.slug() == slug) return row.second;
    }
    return std::nullopt;
  }
  int64_t countLinks(const std::string&, const links::LinkFilter&) override { return 0; }
  std::vector<v1::Link> listLinks(const std::string&, const links::LinkFilter&, int64_t,
                                  int) override {
    return {};
  }
  bool deleteLink(const std::string& ws, const std::string& uuid,
                  const std::function<void()>& before_commit) override {
    auto it = rows.find(uuid);
    if (it == rows.end() || it->second.first != ws) return false;
    before_commit();
    rows.erase(it);
    if (on_finished.erase(uuid) > 0) changes.push_back({ws, uuid, "", ""});
    return true;
  }
  int applyWebhookChanges(const std::string& link_uuid, int limit,
                          const std::function<void(const links::WebhookChange&)>& apply) override {
    int applied = 0;
    for (auto it = changes.begin(); it != changes.end() && applied < limit;) {
      if (!link_uuid.empty() && it->link_uuid != link_uuid) {
        ++it;
        continue;
      }
      apply(*it);  // an exception leaves this change and later ones queued
      it = changes.erase(it);
      ++applied;
    }
    return applied;
  }
};

// The webhooks service as the rules see it; `down` makes every call fail.
class RecordingWebhooks final : public links::LinkWebhooks {
 public:
  std::vector<std::string> calls;
  bool down = false;
  std::string refused_url;  // put() of this URL is refused as invalid
  void put(const std::string& ws, const std::string& link, const std::string& url,
           const std::string& secret) override {
    if (down) throw ApiError(ErrorCode::kServiceUnavailable);
    if (url == refused_url) throw ApiError(ErrorCode::kInvalidWebhookUrl);
    calls.push_back("put " + ws + " " + link + " " + url + " " + secret);
  }
  void remove(const std::string& ws, const std::string& link) override {
    if (down) throw ApiError(ErrorCode::kServiceUnavailable);
    calls.push_back("remove " + ws + " " + link);
  }
};

class NoVersions final : public links::LinkVersions {
 public:
  void raise(const std::string&, int64_t) override {}
};

struct Fixture {
  FakeStore store;
  NoVersions versions;
  RecordingWebhooks webhooks;
  links::LinksService service{
      links::LinksSettings{},
      *feedback::SecretBox::fromBase64Key(feedback::crypto::base64Encode(std::string(32, 'k'))),
      versions, webhooks};

  feedback::common::v1::Caller caller(const char* ws = kWorkspace) {
    feedback::common::v1::Caller c;
    c.mutable_workspace()->set_uuid(ws);
    c.mutable_workspace()->set_host("acme.feedback.test");
    c.mutable_workspace()->set_link_quota(-1);
    return c;
  }
  v1::Link create(const std::string& name, const std::string& slug = {},
                  const std::string& webhook_url = {}, const std::string& secret = {}) {
    v1::CreateLinkRequest request;
    *request.mutable_caller() = caller();
    request.set_name(name);
    if (!slug.empty()) request.set_slug(slug);
    if (!webhook_url.empty()) request.mutable_on_finished()->set_webhook_url(webhook_url);
    if (!secret.empty()) request.mutable_on_finished()->set_webhook_secret(secret);
    return service.createLink(store, request).link();
  }
  void remove(const std::string& uuid) {
    v1::DeleteLinkRequest request;
    *request.mutable_caller() = caller();
    request.set_link_uuid(uuid);
    service.deleteLink(store, request);
  }
};

ErrorCode codeOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const ApiError& e) {
    return e.code();
  }
  return ErrorCode::kInternalError;
}

}  // namespace

TEST_CASE("links rules: the intake finds a link by slug in its own workspace only", "[links]") {
  Fixture f;
  auto made = f.create("Customer NPS", "nps");
  v1::GetLinkBySlugRequest request;
  *request.mutable_caller() = f.caller();
  request.set_slug("nps");
  auto found = f.service.getLinkBySlug(f.store, request).link();
  CHECK(found.uuid() == made.uuid());
  CHECK(found.public_url() == "https://acme.feedback.test/i/nps");
  request.set_slug("other");
  CHECK(codeOf([&] { f.service.getLinkBySlug(f.store, request); }) == ErrorCode::kNotFound);
  request.set_slug("NPS; DROP");
  CHECK(codeOf([&] { f.service.getLinkBySlug(f.store, request); }) == ErrorCode::kNotFound);
  *request.mutable_caller() = f.caller("6f1c1d4e-0a5b-4c1e-9d7a-000000000000");
  request.set_slug("nps");
  CHECK(codeOf([&] { f.service.getLinkBySlug(f.store, request); }) == ErrorCode::kNotFound);
}

TEST_CASE("links rules: text with U+0000 is refused, never cut", "[links]") {
  Fixture f;
  CHECK(codeOf([&] { f.create(std::string("nul\0byte", 8)); }) == ErrorCode::kValidationError);
  v1::CreateLinkRequest request;
  *request.mutable_caller() = f.caller();
  request.set_name("Fine");
  request.add_questions()->set_prompt(std::string("Why\0?", 5));
  CHECK(codeOf([&] { f.service.createLink(f.store, request); }) == ErrorCode::kValidationError);
  request.clear_questions();
  request.mutable_settings()->set_description(std::string("a\0b", 3));
  CHECK(codeOf([&] { f.service.createLink(f.store, request); }) == ErrorCode::kValidationError);
  CHECK(f.store.rows.empty());
}

TEST_CASE("links rules: on_finished creates the link's webhook and its deletion removes it",
          "[links]") {
  Fixture f;
  auto link = f.create("Auto hook", "auto", "https://hooks.example.com/in", "s3cret");
  REQUIRE(f.webhooks.calls.size() == 1);
  // The secret crosses to the webhooks service in clear; in the links table it is sealed.
  CHECK(f.webhooks.calls[0] == std::string("put ") + kWorkspace + " " + link.uuid() +
                                   " https://hooks.example.com/in s3cret");
  CHECK(f.store.on_finished[link.uuid()].sealed_secret.find("s3cret") == std::string::npos);
  CHECK(f.store.changes.empty());
  f.remove(link.uuid());
  REQUIRE(f.webhooks.calls.size() == 2);
  CHECK(f.webhooks.calls[1] == std::string("remove ") + kWorkspace + " " + link.uuid());
  // A link without on_finished costs the webhooks service nothing.
  auto plain = f.create("Plain", "plain");
  f.remove(plain.uuid());
  CHECK(f.webhooks.calls.size() == 2);
}

TEST_CASE("links rules: a webhook change the webhooks service missed is applied later, in order",
          "[links]") {
  Fixture f;
  f.webhooks.down = true;
  auto link = f.create("Auto hook", "auto", "https://hooks.example.com/in");
  f.remove(link.uuid());  // both answered although the webhooks service is down
  CHECK(f.webhooks.calls.empty());
  REQUIRE(f.store.changes.size() == 2);
  f.webhooks.down = false;
  f.service.syncWebhooks(f.store, "");
  REQUIRE(f.webhooks.calls.size() == 2);
  CHECK(f.webhooks.calls[0].rfind("put ", 0) == 0);
  CHECK(f.webhooks.calls[1].rfind("remove ", 0) == 0);
  CHECK(f.store.changes.empty());
}

TEST_CASE("links rules: on_finished is checked by the shared webhook rules", "[links]") {
  Fixture f;
  for (const char* url : {"http://hooks.example.com/in", "ftp://hooks.example.com/", "https://",
                          "https://127.0.0.1/in", "https://2130706433/in", "https://[::1]/in",
                          "https://user:pw@hooks.example.com/in"}) {
    INFO(url);
    CHECK(codeOf([&] { f.create("Bad hook", "", url); }) == ErrorCode::kInvalidWebhookUrl);
  }
  CHECK(codeOf([&] {
          f.create("Bad secret", "", "https://hooks.example.com/in", std::string(256, 's'));
        }) == ErrorCode::kValidationError);
  CHECK(f.webhooks.calls.empty());
  CHECK(f.store.rows.empty());
}

TEST_CASE("links rules: a webhook change the webhooks service refuses does not block later ones",
          "[links]") {
  Fixture f;
  f.webhooks.down = true;
  f.create("Refused", "refused", "https://old.example.com/in");
  auto later = f.create("Later", "later", "https://hooks.example.com/in");
  f.webhooks.down = false;
  f.webhooks.refused_url = "https://old.example.com/in";
  f.service.syncWebhooks(f.store, "");
  REQUIRE(f.webhooks.calls.size() == 1);
  CHECK(f.webhooks.calls[0].find(later.uuid()) != std::string::npos);
  CHECK(f.store.changes.empty());
}
