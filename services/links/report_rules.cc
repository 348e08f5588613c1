#include "services/links/report_rules.h"

#include "common/core/crypto.h"
#include "common/core/errors.h"
#include "common/core/ids.h"
#include "common/core/pagination.h"
#include "common/questions/recall.h"

namespace feedback::links {
namespace {

void requireLinkUuid(const std::string& uuid) {
  if (!isUuid(uuid)) throw ApiError(ErrorCode::kNotFound, "No such link.");
}

}  // namespace

v1::CreateReportResponse ReportRules::createReport(LinksStore& store,
                                                   const v1::CreateReportRequest& request) {
  requireLinkUuid(request.link_uuid());
  const int days = request.has_expires_in_days() ? request.expires_in_days() : kDefaultDays;
  if (days < 1 || days > kMaxDays) {
    throw ApiError(ErrorCode::kValidationError, "'expires_in_days' must be from 1 to 365.",
                   {{"expires_in_days", "must be an integer from 1 to 365"}});
  }
  const auto& workspace = request.caller().workspace();
  const std::string token = newReportToken();
  v1::CreateReportResponse response;
  auto& report = *response.mutable_report();
  report.set_uuid(newUuid());
  report.set_link_uuid(request.link_uuid());
  report.set_include_text(request.include_text());
  if (!store.insertReport(workspace.uuid(), crypto::sha256Hex(token), days, report)) {
    throw ApiError(ErrorCode::kNotFound, "No such link.");
  }
  response.set_url(public_scheme_ + "://" + workspace.host() + "/r/" + token);
  return response;
}

v1::ListReportsResponse ReportRules::listReports(LinksStore& store,
                                                 const v1::ListReportsRequest& request) {
  requireLinkUuid(request.link_uuid());
  const auto& workspace = request.caller().workspace().uuid();
  // Another workspace's link has no reports to list: it is not found, as everywhere.
  if (!store.findLink(workspace, request.link_uuid())) {
    throw ApiError(ErrorCode::kNotFound, "No such link.");
  }
  const Page page = normalizePage(request.page());
  v1::ListReportsResponse response;
  response.set_count(store.countReports(workspace, request.link_uuid()));
  for (auto& r : store.listReports(workspace, request.link_uuid(), page.offset(), page.size)) {
    *response.add_reports() = std::move(r);
  }
  return response;
}

v1::RevokeReportResponse ReportRules::revokeReport(LinksStore& store,
                                                   const v1::RevokeReportRequest& request) {
  requireLinkUuid(request.link_uuid());
  if (!isUuid(request.report_uuid()) ||
      !store.revokeReport(request.caller().workspace().uuid(), request.link_uuid(),
                          request.report_uuid())) {
    throw ApiError(ErrorCode::kNotFound, "No such report.");
  }
  return {};
}

v1::OpenReportResponse ReportRules::openReport(LinksStore& store,
                                               const v1::OpenReportRequest& request) {
  auto report =
      isReportToken(request.token())
          ? store.findLiveReport(request.workspace_uuid(), crypto::sha256Hex(request.token()))
          : std::nullopt;
  auto link = report ? store.findLink(request.workspace_uuid(), report->link_uuid()) : std::nullopt;
  if (!link) throw ApiError(ErrorCode::kNotFound, "No such report.");
  // A prompt recalling an answer reads over everyone's answers: "…" stands for each.
  static const boost::json::value kAnyAnswer("…");
  const auto any = [](std::string_view) { return &kAnyAnswer; };
  for (auto& q : *link->mutable_questions()) q.set_prompt(questions::withRecall(q.prompt(), any));
  if (link->settings().has_description()) {
    link->mutable_settings()->set_description(
        questions::withRecall(link->settings().description(), any));
  }
  v1::OpenReportResponse response;
  *response.mutable_report() = std::move(*report);
  *response.mutable_link() = std::move(*link);
  return response;
}

}  // namespace feedback::links
