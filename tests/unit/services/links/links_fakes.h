#pragma once
// In-memory stand-ins for what the links rules use: the store, the webhooks service and the
// link versions in Redis. Shared by the unit tests and the fuzz targets (tests/fuzz/).

#include <map>
#include <string>
#include <vector>

#include "common/core/errors.h"
#include "services/links/links_service.h"

namespace feedback::links::fakes {

class FakeStore final : public LinksStore {
 public:
  std::map<std::string, std::pair<std::string, v1::Link>> rows;  // uuid -> (workspace, link)
  std::map<std::string, OnFinished> on_finished;                 // link uuid -> its on_finished
  // What the links table's triggers queue (migration 005).
  std::vector<WebhookChange> changes;

  InsertOutcome insertLink(const std::string& ws, int, const std::string& slug_base, v1::Link& link,
                           const OnFinished& finished) override {
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
  UpdateOutcome updateLink(const std::string& ws, const std::string& uuid,
                           const std::function<bool(v1::Link&)>& apply, v1::Link& out,
                           const std::function<void(int64_t)>& before_commit) override {
    auto it = rows.find(uuid);
    if (it == rows.end() || it->second.first != ws) return UpdateOutcome::kNotFound;
    v1::Link changed = it->second.second;
    apply(changed);  // an exception leaves the row as it was
    for (const auto& [other_uuid, row] : rows) {
      if (other_uuid != uuid && row.first == ws && row.second.slug() == changed.slug()) {
        return UpdateOutcome::kSlugTaken;
      }
    }
    changed.set_version(changed.version() + 1);
    before_commit(changed.version());
    it->second.second = changed;
    out = changed;
    return UpdateOutcome::kUpdated;
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
  int64_t countLinks(const std::string&, const LinkFilter&) override { return 0; }
  std::vector<v1::Link> listLinks(const std::string&, const LinkFilter&, int64_t, int) override {
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
                          const std::function<void(const WebhookChange&)>& apply) override {
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

  // Shared reports: a report goes with its link (the table's foreign key).
  struct StoredReport {
    std::string workspace_uuid, token_hash;
    v1::Report report;
    bool revoked = false;
  };
  std::vector<StoredReport> reports;  // oldest first
  int64_t now_micros = 1'800'000'000'000'000;
  bool live(const StoredReport& r) const {
    return !r.revoked && r.report.expires_at_micros() > now_micros &&
           rows.count(r.report.link_uuid()) > 0;
  }
  bool insertReport(const std::string& ws, const std::string& token_hash, int days,
                    v1::Report& report) override {
    auto it = rows.find(report.link_uuid());
    if (it == rows.end() || it->second.first != ws) return false;
    report.set_date_created_micros(now_micros);
    report.set_expires_at_micros(now_micros + int64_t{days} * 86'400'000'000);
    reports.push_back({ws, token_hash, report, false});
    return true;
  }
  std::vector<v1::Report> liveReports(const std::string& ws, const std::string& link) const {
    std::vector<v1::Report> out;
    for (auto it = reports.rbegin(); it != reports.rend(); ++it) {
      if (it->workspace_uuid == ws && it->report.link_uuid() == link && live(*it)) {
        out.push_back(it->report);
      }
    }
    return out;
  }
  int64_t countReports(const std::string& ws, const std::string& link) override {
    return static_cast<int64_t>(liveReports(ws, link).size());
  }
  std::vector<v1::Report> listReports(const std::string& ws, const std::string& link,
                                      int64_t offset, int limit) override {
    auto all = liveReports(ws, link);
    std::vector<v1::Report> out;
    for (auto i = static_cast<std::size_t>(offset);
         i < all.size() && out.size() < static_cast<std::size_t>(limit); ++i) {
      out.push_back(all[i]);
    }
    return out;
  }
  bool revokeReport(const std::string& ws, const std::string& link,
                    const std::string& report_uuid) override {
    for (auto& r : reports) {
      if (r.workspace_uuid == ws && r.report.link_uuid() == link &&
          r.report.uuid() == report_uuid && live(r)) {
        r.revoked = true;
        return true;
      }
    }
    return false;
  }
  std::optional<v1::Report> findLiveReport(const std::string& ws,
                                           const std::string& token_hash) override {
    for (const auto& r : reports) {
      if (r.workspace_uuid == ws && r.token_hash == token_hash && live(r)) return r.report;
    }
    return std::nullopt;
  }
};

// The webhooks service as the rules see it; `down` makes every call fail.
class RecordingWebhooks final : public LinkWebhooks {
 public:
  std::vector<std::string> calls;
  bool down = false;
  std::string refused_url;  // put() of this URL is refused as invalid
  void put(const std::string& ws, const std::string& link, const std::string& url,
           const std::string& secret) override {
    if (down) throw feedback::ApiError(feedback::ErrorCode::kServiceUnavailable);
    if (url == refused_url) throw feedback::ApiError(feedback::ErrorCode::kInvalidWebhookUrl);
    calls.push_back("put " + ws + " " + link + " " + url + " " + secret);
  }
  void remove(const std::string& ws, const std::string& link) override {
    if (down) throw feedback::ApiError(feedback::ErrorCode::kServiceUnavailable);
    calls.push_back("remove " + ws + " " + link);
  }
};

class NoVersions final : public LinkVersions {
 public:
  void raise(const std::string&, int64_t) override {}
};

}  // namespace feedback::links::fakes
