// LinksService on an in-memory store: what the rules decide, whatever the storage.
#include <catch2/catch.hpp>
#include <map>

#include "common/core/crypto.h"
#include "common/core/errors.h"
#include "services/links/links_service.h"
#include "tests/unit/services/links/links_fakes.h"

namespace links = feedback::links;
namespace v1 = feedback::links::v1;
using feedback::ApiError;
using feedback::ErrorCode;

namespace {

constexpr const char* kWorkspace = "6f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f60";

using links::fakes::FakeStore;
using links::fakes::NoVersions;
using links::fakes::RecordingWebhooks;

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
