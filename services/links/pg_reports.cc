// PgLinksStore's shared reports (links migration 006).
#include <pqxx/pqxx>

#include "common/pg/sql_text.h"
#include "services/links/pg_links_store.h"

namespace feedback::links {
namespace {

#define REPORT_COLUMNS \
  "uuid, link_uuid, include_text, " MICROS("expires_at") ", " MICROS("date_created")
#define LIVE "revoked_at IS NULL AND expires_at > clock_timestamp()"

// Of a link of the workspace only: no row back when there is none.
constexpr const char* kInsertReport = "links_insert_report";
constexpr const char* kInsertReportSql =
    "INSERT INTO links.reports (uuid, workspace_uuid, link_uuid, token_hash, include_text, "
    "expires_at) SELECT $1, workspace_uuid, uuid, $4, $5, clock_timestamp() + make_interval(days "
    "=> $6) FROM links.links WHERE workspace_uuid = $2 AND uuid = $3 RETURNING " MICROS(
        "expires_at") ", " MICROS("date_created");

constexpr const char* kCountReports = "links_count_reports";
constexpr const char* kCountReportsSql =
    "SELECT count(*) FROM links.reports WHERE workspace_uuid = $1 AND link_uuid = $2 AND " LIVE;

constexpr const char* kListReports = "links_list_reports";
constexpr const char* kListReportsSql =
    "SELECT " REPORT_COLUMNS
    " FROM links.reports WHERE workspace_uuid = $1 AND link_uuid = $2 "
    "AND " LIVE " ORDER BY date_created DESC, uuid DESC LIMIT $3 OFFSET $4";

constexpr const char* kRevokeReport = "links_revoke_report";
constexpr const char* kRevokeReportSql =
    "UPDATE links.reports SET revoked_at = clock_timestamp() WHERE workspace_uuid = $1 AND "
    "link_uuid = $2 AND uuid = $3 AND " LIVE " RETURNING uuid";

// By the token's hash (unique), then the workspace whose host the page was asked on.
constexpr const char* kFindLiveReport = "links_find_live_report";
constexpr const char* kFindLiveReportSql =
    "SELECT " REPORT_COLUMNS
    " FROM links.reports WHERE token_hash = $1 AND workspace_uuid = $2 AND " LIVE;

v1::Report reportFrom(const pqxx::row& row) {
  v1::Report r;
  r.set_uuid(row[0].as<std::string>());
  r.set_link_uuid(row[1].as<std::string>());
  r.set_include_text(row[2].as<bool>());
  r.set_expires_at_micros(row[3].as<int64_t>());
  r.set_date_created_micros(row[4].as<int64_t>());
  return r;
}

}  // namespace

void PgLinksStore::prepareReports(pqxx::connection& c) {
  c.prepare(kInsertReport, kInsertReportSql);
  c.prepare(kCountReports, kCountReportsSql);
  c.prepare(kListReports, kListReportsSql);
  c.prepare(kRevokeReport, kRevokeReportSql);
  c.prepare(kFindLiveReport, kFindLiveReportSql);
}

bool PgLinksStore::insertReport(const std::string& workspace_uuid, const std::string& token_hash,
                                int days, v1::Report& report) {
  pqxx::work tx(connection_);
  auto rows = tx.exec_prepared(kInsertReport, report.uuid(), workspace_uuid, report.link_uuid(),
                               token_hash, report.include_text(), days);
  if (rows.empty()) return false;
  report.set_expires_at_micros(rows[0][0].as<int64_t>());
  report.set_date_created_micros(rows[0][1].as<int64_t>());
  tx.commit();
  return true;
}

int64_t PgLinksStore::countReports(const std::string& workspace_uuid,
                                   const std::string& link_uuid) {
  pqxx::nontransaction tx(connection_);
  return tx.exec_prepared1(kCountReports, workspace_uuid, link_uuid)[0].as<int64_t>();
}

std::vector<v1::Report> PgLinksStore::listReports(const std::string& workspace_uuid,
                                                  const std::string& link_uuid, int64_t offset,
                                                  int limit) {
  pqxx::nontransaction tx(connection_);
  std::vector<v1::Report> out;
  for (const auto& row : tx.exec_prepared(kListReports, workspace_uuid, link_uuid, limit, offset)) {
    out.push_back(reportFrom(row));
  }
  return out;
}

bool PgLinksStore::revokeReport(const std::string& workspace_uuid, const std::string& link_uuid,
                                const std::string& report_uuid) {
  pqxx::work tx(connection_);
  const bool revoked =
      !tx.exec_prepared(kRevokeReport, workspace_uuid, link_uuid, report_uuid).empty();
  tx.commit();
  return revoked;
}

std::optional<v1::Report> PgLinksStore::findLiveReport(const std::string& workspace_uuid,
                                                       const std::string& token_hash) {
  pqxx::nontransaction tx(connection_);
  auto rows = tx.exec_prepared(kFindLiveReport, token_hash, workspace_uuid);
  if (rows.empty()) return std::nullopt;
  return reportFrom(rows[0]);
}

}  // namespace feedback::links
