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

  InsertOutcome insertLink(const std::string& ws, int, const std::string& slug_base, v1::Link& link,
                           const links::OnFinished&) override {
    if (link.slug().empty()) link.set_slug(slug_base);
    for (const auto& [_, row] : rows) {
      if (row.first == ws && row.second.slug() == link.slug()) return InsertOutcome::kSlugTaken;
    }
    link.set_version(1);
    rows[link.uuid()] = {ws, link};
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
  bool deleteLink(const std::string&, const std::string&, const std::function<void()>&) override {
    return false;
  }
};

class NoVersions final : public links::LinkVersions {
 public:
  void raise(const std::string&, int64_t) override {}
};

struct Fixture {
  FakeStore store;
  NoVersions versions;
  links::LinksService service{
      links::LinksSettings{},
      *feedback::SecretBox::fromBase64Key(feedback::crypto::base64Encode(std::string(32, 'k'))),
      versions};

  feedback::common::v1::Caller caller(const char* ws = kWorkspace) {
    feedback::common::v1::Caller c;
    c.mutable_workspace()->set_uuid(ws);
    c.mutable_workspace()->set_host("acme.feedback.test");
    c.mutable_workspace()->set_link_quota(-1);
    return c;
  }
  v1::Link create(const std::string& name, const std::string& slug = {}) {
    v1::CreateLinkRequest request;
    *request.mutable_caller() = caller();
    request.set_name(name);
    if (!slug.empty()) request.set_slug(slug);
    return service.createLink(store, request).link();
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
