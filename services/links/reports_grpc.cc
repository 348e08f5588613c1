#include "services/links/reports_grpc.h"

#include "common/service/pool_reactor.h"
#include "services/links/pg_links_store.h"

namespace feedback::links {

grpc::ServerUnaryReactor* ReportsGrpc::CreateReport(grpc::CallbackServerContext* c,
                                                    const v1::CreateReportRequest* q,
                                                    v1::CreateReportResponse* r) {
  return service::callOnPool<PgLinksStore>(c, pool_, counters_, "CreateReport", rules_,
                                           &ReportRules::createReport, q, r);
}

grpc::ServerUnaryReactor* ReportsGrpc::ListReports(grpc::CallbackServerContext* c,
                                                   const v1::ListReportsRequest* q,
                                                   v1::ListReportsResponse* r) {
  return service::callOnPool<PgLinksStore>(c, pool_, counters_, "ListReports", rules_,
                                           &ReportRules::listReports, q, r);
}

grpc::ServerUnaryReactor* ReportsGrpc::RevokeReport(grpc::CallbackServerContext* c,
                                                    const v1::RevokeReportRequest* q,
                                                    v1::RevokeReportResponse* r) {
  return service::callOnPool<PgLinksStore>(c, pool_, counters_, "RevokeReport", rules_,
                                           &ReportRules::revokeReport, q, r);
}

grpc::ServerUnaryReactor* ReportsGrpc::OpenReport(grpc::CallbackServerContext* c,
                                                  const v1::OpenReportRequest* q,
                                                  v1::OpenReportResponse* r) {
  return service::callOnPool<PgLinksStore>(c, pool_, counters_, "OpenReport", rules_,
                                           &ReportRules::openReport, q, r);
}

}  // namespace feedback::links
