// Shared reports (docs/api.md "Shared reports") through the rules on the in-memory store:
// tokens kept only as hashes, expiry bounds, listing live reports, revocation, and a report
// that goes with its link or its expiry.
#include "services/links/report_rules.h"

#include <catch2/catch.hpp>

#include "common/core/crypto.h"
#include "common/core/ids.h"
#include "tests/unit/services/links/links_fakes.h"

using namespace feedback;
using namespace feedback::links;

namespace {

constexpr const char* kWorkspace = "11111111-1111-4111-8111-111111111111";
constexpr const char* kLinkUuid = "22222222-2222-4222-8222-222222222222";

struct ReportsFixture {
  fakes::FakeStore store;
  ReportRules rules{"https"};

  ReportsFixture() {
    v1::Link link;
    link.set_uuid(kLinkUuid);
    link.set_name("Pulse");
    auto* q = link.add_questions();
    q->set_field_key("why");
    q->set_prompt("Why {{nps}}, {{name}}?");
    store.rows[kLinkUuid] = {kWorkspace, link};
  }

  common::v1::Caller caller(const char* workspace = kWorkspace) const {
    common::v1::Caller c;
    c.mutable_workspace()->set_uuid(workspace);
    c.mutable_workspace()->set_host("acme.feedback.example");
    return c;
  }

  v1::CreateReportResponse create(std::optional<int> days = std::nullopt, bool text = false) {
    v1::CreateReportRequest q;
    *q.mutable_caller() = caller();
    q.set_link_uuid(kLinkUuid);
    if (days) q.set_expires_in_days(*days);
    q.set_include_text(text);
    return rules.createReport(store, q);
  }

  v1::OpenReportResponse open(const std::string& token, const char* workspace = kWorkspace) {
    v1::OpenReportRequest q;
    q.set_workspace_uuid(workspace);
    q.set_token(token);
    return rules.openReport(store, q);
  }

  std::vector<std::string> listed() {
    v1::ListReportsRequest q;
    *q.mutable_caller() = caller();
    q.set_link_uuid(kLinkUuid);
    std::vector<std::string> out;
    const auto listing = rules.listReports(store, q);
    for (const auto& r : listing.reports()) out.push_back(r.uuid());
    return out;
  }
};

std::string tokenOf(const std::string& url) {
  const std::string prefix = "https://acme.feedback.example/r/";
  REQUIRE(url.rfind(prefix, 0) == 0);
  return url.substr(prefix.size());
}

ErrorCode codeOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const ApiError& e) {
    return e.code();
  }
  return ErrorCode::kInternalError;
}

}  // namespace

TEST_CASE_METHOD(ReportsFixture, "a report's url carries a token the store knows only by hash") {
  const auto made = create(std::nullopt, true);
  const std::string token = tokenOf(made.url());
  CHECK(isReportToken(token));
  REQUIRE(store.reports.size() == 1);
  CHECK(store.reports[0].token_hash == crypto::sha256Hex(token));
  CHECK(store.reports[0].token_hash.find(token) == std::string::npos);
  CHECK(made.report().include_text());
  CHECK(made.report().expires_at_micros() - made.report().date_created_micros() ==
        int64_t{30} * 86'400'000'000);
  const auto opened = open(token);
  CHECK(opened.report().uuid() == made.report().uuid());
  CHECK(opened.link().name() == "Pulse");
  CHECK(opened.link().questions(0).prompt() == "Why …, …?");
  // Two reports never share a token.
  CHECK(tokenOf(create().url()) != token);
}

TEST_CASE_METHOD(ReportsFixture, "expires_in_days is from 1 to 365") {
  CHECK(create(1).report().expires_at_micros() - store.now_micros == 86'400'000'000);
  CHECK(create(365).report().uuid().size() == 36);
  for (int days : {0, -1, 366}) CHECK(codeOf([&] { create(days); }) == ErrorCode::kValidationError);
}

TEST_CASE_METHOD(ReportsFixture, "only live reports are listed and opened") {
  const auto first = create(1), second = create(2), third = create(3);
  CHECK(listed() == std::vector<std::string>{third.report().uuid(), second.report().uuid(),
                                             first.report().uuid()});
  v1::RevokeReportRequest revoke;
  *revoke.mutable_caller() = caller();
  revoke.set_link_uuid(kLinkUuid);
  revoke.set_report_uuid(second.report().uuid());
  rules.revokeReport(store, revoke);
  CHECK(codeOf([&] { rules.revokeReport(store, revoke); }) == ErrorCode::kNotFound);
  CHECK(codeOf([&] { open(tokenOf(second.url())); }) == ErrorCode::kNotFound);
  // A day and a second later the first has expired.
  store.now_micros += 86'401'000'000;
  CHECK(listed() == std::vector<std::string>{third.report().uuid()});
  CHECK(codeOf([&] { open(tokenOf(first.url())); }) == ErrorCode::kNotFound);
  CHECK(open(tokenOf(third.url())).report().uuid() == third.report().uuid());
}

TEST_CASE_METHOD(ReportsFixture, "a report opens only on its workspace's host and with its link") {
  const auto made = create();
  const std::string token = tokenOf(made.url());
  CHECK(codeOf([&] { open(token, "33333333-3333-4333-8333-333333333333"); }) ==
        ErrorCode::kNotFound);
  CHECK(codeOf([&] { open(token.substr(1)); }) == ErrorCode::kNotFound);
  CHECK(codeOf([&] { open(std::string(43, '!')); }) == ErrorCode::kNotFound);
  v1::ListReportsRequest list;
  *list.mutable_caller() = caller("33333333-3333-4333-8333-333333333333");
  list.set_link_uuid(kLinkUuid);
  CHECK(codeOf([&] { rules.listReports(store, list); }) == ErrorCode::kNotFound);
  store.rows.erase(kLinkUuid);
  CHECK(codeOf([&] { open(token); }) == ErrorCode::kNotFound);
  CHECK(codeOf([&] { create(); }) == ErrorCode::kNotFound);
}
