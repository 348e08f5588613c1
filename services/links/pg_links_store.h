#pragma once

#include <pqxx/connection>

#include "services/links/links_store.h"

namespace feedback::links {

// LinksStore on PostgreSQL (schema `links`), through prepared statements.
class PgLinksStore final : public LinksStore {
 public:
  explicit PgLinksStore(pqxx::connection& connection) : connection_(connection) {}
  static void prepare(pqxx::connection& connection);

  InsertOutcome insertLink(const std::string& workspace_uuid, int link_quota,
                           const std::string& slug_base, v1::Link& link,
                           const OnFinished& on_finished) override;
  UpdateOutcome updateLink(const std::string& workspace_uuid, const std::string& link_uuid,
                           const std::function<bool(v1::Link&)>& apply, v1::Link& updated,
                           const std::function<void(int64_t)>& before_commit) override;
  std::optional<v1::Link> findLink(const std::string& workspace_uuid,
                                   const std::string& link_uuid) override;
  std::optional<v1::Link> findLinkBySlug(const std::string& workspace_uuid,
                                         const std::string& slug) override;
  int64_t countLinks(const std::string& workspace_uuid, const LinkFilter& filter) override;
  std::vector<v1::Link> listLinks(const std::string& workspace_uuid, const LinkFilter& filter,
                                  int64_t offset, int limit) override;
  bool deleteLink(const std::string& workspace_uuid, const std::string& link_uuid,
                  const std::function<void()>& before_commit) override;
  int applyWebhookChanges(const std::string& link_uuid, int limit,
                          const std::function<void(const WebhookChange&)>& apply) override;

  // Shared reports (pg_reports.cc).
  static void prepareReports(pqxx::connection& connection);
  bool insertReport(const std::string& workspace_uuid, const std::string& token_hash, int days,
                    v1::Report& report) override;
  int64_t countReports(const std::string& workspace_uuid, const std::string& link_uuid) override;
  std::vector<v1::Report> listReports(const std::string& workspace_uuid,
                                      const std::string& link_uuid, int64_t offset,
                                      int limit) override;
  bool revokeReport(const std::string& workspace_uuid, const std::string& link_uuid,
                    const std::string& report_uuid) override;
  std::optional<v1::Report> findLiveReport(const std::string& workspace_uuid,
                                           const std::string& token_hash) override;

 private:
  pqxx::connection& connection_;
};

}  // namespace feedback::links
