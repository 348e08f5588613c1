#pragma once
// The rules of shared reports (docs/api.md "Shared reports"): made, listed and revoked with an
// API key, opened by anyone holding the token. A token is 32 random bytes; only its SHA-256 is
// kept. Knows nothing of gRPC or SQL.

#include <string>
#include <string_view>

#include "feedback/links/v1/reports.pb.h"
#include "services/links/links_store.h"

namespace feedback::links {

class ReportRules {
 public:
  static constexpr int kDefaultDays = 30;
  static constexpr int kMaxDays = 365;

  // `public_scheme`: the scheme of the url a new report is given.
  explicit ReportRules(std::string public_scheme) : public_scheme_(std::move(public_scheme)) {}

  v1::CreateReportResponse createReport(LinksStore& store, const v1::CreateReportRequest& request);
  v1::ListReportsResponse listReports(LinksStore& store, const v1::ListReportsRequest& request);
  v1::RevokeReportResponse revokeReport(LinksStore& store, const v1::RevokeReportRequest& request);
  // The report and its link, whose prompts and description show "…" for each recalled answer.
  // NOT_FOUND for a token that opens no live report of the workspace, or whose link is gone.
  v1::OpenReportResponse openReport(LinksStore& store, const v1::OpenReportRequest& request);

 private:
  std::string public_scheme_;
};

}  // namespace feedback::links
