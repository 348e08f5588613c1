#pragma once

#include "common/core/counters.h"
#include "common/pg/pg_pool.h"
#include "feedback/links/v1/reports.grpc.pb.h"
#include "services/links/report_rules.h"

namespace feedback::links {

// Thin adapter: every RPC runs ReportRules on the worker pool with a PgLinksStore.
class ReportsGrpc final : public v1::ReportsService::CallbackService {
 public:
  ReportsGrpc(ReportRules& rules, PgPool& pool, Counters& counters)
      : rules_(rules), pool_(pool), counters_(counters) {}

  grpc::ServerUnaryReactor* CreateReport(grpc::CallbackServerContext* context,
                                         const v1::CreateReportRequest* request,
                                         v1::CreateReportResponse* response) override;
  grpc::ServerUnaryReactor* ListReports(grpc::CallbackServerContext* context,
                                        const v1::ListReportsRequest* request,
                                        v1::ListReportsResponse* response) override;
  grpc::ServerUnaryReactor* RevokeReport(grpc::CallbackServerContext* context,
                                         const v1::RevokeReportRequest* request,
                                         v1::RevokeReportResponse* response) override;
  grpc::ServerUnaryReactor* OpenReport(grpc::CallbackServerContext* context,
                                       const v1::OpenReportRequest* request,
                                       v1::OpenReportResponse* response) override;

 private:
  ReportRules& rules_;
  PgPool& pool_;
  Counters& counters_;
};

}  // namespace feedback::links
