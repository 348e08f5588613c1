#include "services/links/pg_links_store.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <pqxx/pqxx>
#include <set>

#include "common/core/errors.h"
#include "common/core/json_writer.h"
#include "common/pg/sql_text.h"

namespace feedback::links {
namespace {

#define LINK_COLUMNS                                                                      \
  "uuid, name, slug, status, description, thank_you_message, redirect_url, tts_enabled, " \
  "live_transcription, " MICROS("date_created") ", " MICROS("date_updated") ", version, questions"
// Matches every link when the filter value is empty.
#define FILTER                                                        \
  "workspace_uuid = $1 AND ($2 = '' OR status = $2) AND ($3 = '' OR " \
  "strpos(lower(name), lower($3)) > 0 OR strpos(slug, lower($3)) > 0)"

// Serializes link creation per workspace, so that the quota check and the insert cannot
// interleave with another creation (two requests racing for the last slot: one wins).
constexpr const char* kLockWorkspace = "links_lock_workspace";
constexpr const char* kLockWorkspaceSql =
    "SELECT pg_advisory_xact_lock(hashtext('links.workspace:' || $1))";

constexpr const char* kCountAll = "links_count_all";
constexpr const char* kCountAllSql = "SELECT count(*) FROM links.links WHERE workspace_uuid = $1";

constexpr const char* kSlugsLike = "links_slugs_like";
constexpr const char* kSlugsLikeSql =
    "SELECT slug FROM links.links WHERE workspace_uuid = $1 AND (slug = $2 OR slug LIKE $2 || "
    "'-%')";

// No row back means the slug is taken.
constexpr const char* kInsertLink = "links_insert_link";
constexpr const char* kInsertLinkSql =
    "INSERT INTO links.links (uuid, workspace_uuid, name, slug, status, description, "
    "thank_you_message, redirect_url, tts_enabled, live_transcription, "
    "on_finished_webhook_url, on_finished_webhook_secret_sealed, questions) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) "
    "ON CONFLICT (workspace_uuid, slug) DO NOTHING "
    "RETURNING " MICROS("date_created") ", " MICROS("date_updated") ", version";

constexpr const char* kSelectLink = "links_select_link";
constexpr const char* kSelectLinkSql =
    "SELECT " LINK_COLUMNS " FROM links.links WHERE workspace_uuid = $1 AND uuid = $2";

constexpr const char* kSelectLinkBySlug = "links_select_link_by_slug";
constexpr const char* kSelectLinkBySlugSql =
    "SELECT " LINK_COLUMNS " FROM links.links WHERE workspace_uuid = $1 AND slug = $2";

// Also reads the database clock: the time of the change about to be made.
constexpr const char* kSelectLinkForUpdate = "links_select_link_for_update";
constexpr const char* kSelectLinkForUpdateSql = "SELECT " LINK_COLUMNS ", " MICROS(
    "clock_timestamp()") " FROM links.links WHERE workspace_uuid = $1 AND uuid = $2 FOR UPDATE";

constexpr const char* kUpdateLink = "links_update_link";
constexpr const char* kUpdateLinkSql =
    "UPDATE links.links SET name = $2, slug = $3, status = $4, description = $5, "
    "thank_you_message = $6, redirect_url = $7, tts_enabled = $8, live_transcription = $9, "
    "questions = $10, date_updated = 'epoch'::timestamptz + $11::bigint * interval "
    "'1 microsecond', version = version + 1 WHERE uuid = $1 RETURNING version";

constexpr const char* kCountFiltered = "links_count_filtered";
constexpr const char* kCountFilteredSql = "SELECT count(*) FROM links.links WHERE " FILTER;

constexpr const char* kListFiltered = "links_list_filtered";
constexpr const char* kListFilteredSql =
    "SELECT " LINK_COLUMNS " FROM links.links WHERE " FILTER
    " ORDER BY date_created DESC, uuid DESC LIMIT $4 OFFSET $5";

constexpr const char* kDeleteLink = "links_delete_link";
constexpr const char* kDeleteLinkSql =
    "DELETE FROM links.links WHERE workspace_uuid = $1 AND uuid = $2 RETURNING uuid";

// Whole links' worth of changes, oldest first, locked (without SKIP LOCKED: a second caller
// waits, then finds what the first applied gone) so that a link's removal can never be
// applied before its creation.
constexpr const char* kLockWebhookChanges = "links_lock_webhook_changes";
constexpr const char* kLockWebhookChangesSql =
    "SELECT id, workspace_uuid, link_uuid, webhook_url, webhook_secret_sealed"
    " FROM links.webhook_changes WHERE link_uuid IN ("
    "   SELECT link_uuid FROM links.webhook_changes WHERE $1 = '' OR link_uuid = $1::uuid"
    "   ORDER BY id LIMIT $2)"
    " ORDER BY id FOR UPDATE";

constexpr const char* kForgetWebhookChange = "links_forget_webhook_change";
constexpr const char* kForgetWebhookChangeSql = "DELETE FROM links.webhook_changes WHERE id = $1";

#undef FILTER
#undef LINK_COLUMNS

constexpr int kQuestionsColumn = 12;

// The stored form of a link's questions: a JSON array in display order. A timestamp of 0
// stands for the link's date_created (questions made with their link); PATCH stores the
// times it sets.
std::string questionsJson(const v1::Link& link) {
  std::string out;
  out.reserve(512 * static_cast<std::size_t>(link.questions_size()) + 2);
  JsonWriter json(out);
  json.beginArray();
  for (const auto& q : link.questions()) {
    json.beginObject()
        .field("uuid", q.uuid())
        .field("prompt", q.prompt())
        .field("field_key", q.field_key())
        .field("response_type", q.response_type());
    json.key("configuration").raw(q.configuration_json());
    json.field("order", q.order()).field("required", q.required());
    json.key("condition").raw(q.condition_json());
    json.field("enable_dynamic_probing", q.enable_dynamic_probing())
        .field("fallback_to_text", q.fallback_to_text());
    json.key("evaluator_config").raw(q.evaluator_config_json());
    json.field("date_created", q.date_created_micros())
        .field("date_updated", q.date_updated_micros())
        .endObject();
  }
  json.endArray();
  return out;
}

void questionsFrom(std::string_view stored, v1::Link& link) {
  boost::system::error_code ec;
  auto document = boost::json::parse(stored, ec);
  if (ec || !document.is_array()) {
    throw ApiError(ErrorCode::kInternalError, "Stored questions of a link are unreadable.");
  }
  for (const auto& item : document.as_array()) {
    const auto& o = item.as_object();
    auto* q = link.add_questions();
    q->set_uuid(std::string(o.at("uuid").as_string()));
    q->set_prompt(std::string(o.at("prompt").as_string()));
    q->set_field_key(std::string(o.at("field_key").as_string()));
    q->set_response_type(std::string(o.at("response_type").as_string()));
    q->set_configuration_json(boost::json::serialize(o.at("configuration")));
    q->set_order(static_cast<int32_t>(o.at("order").to_number<int64_t>()));
    q->set_required(o.at("required").as_bool());
    q->set_condition_json(boost::json::serialize(o.at("condition")));
    q->set_enable_dynamic_probing(o.at("enable_dynamic_probing").as_bool());
    q->set_fallback_to_text(o.at("fallback_to_text").as_bool());
    q->set_evaluator_config_json(boost::json::serialize(o.at("evaluator_config")));
    int64_t created = o.at("date_created").to_number<int64_t>();
    int64_t updated = o.at("date_updated").to_number<int64_t>();
    q->set_date_created_micros(created ? created : link.date_created_micros());
    q->set_date_updated_micros(updated ? updated : link.date_created_micros());
  }
}

v1::Link linkFrom(const pqxx::row& row) {
  v1::Link link;
  link.set_uuid(row[0].as<std::string>());
  link.set_name(row[1].as<std::string>());
  link.set_slug(row[2].as<std::string>());
  link.set_status(row[3].as<std::string>());
  auto* settings = link.mutable_settings();
  if (!row[4].is_null()) settings->set_description(row[4].as<std::string>());
  settings->set_thank_you_message(row[5].as<std::string>());
  if (!row[6].is_null()) settings->set_redirect_url(row[6].as<std::string>());
  settings->set_tts_enabled(row[7].as<bool>());
  settings->set_live_transcription(row[8].as<bool>());
  link.set_date_created_micros(row[9].as<int64_t>());
  link.set_date_updated_micros(row[10].as<int64_t>());
  link.set_version(row[11].as<int64_t>());
  questionsFrom(std::string_view(row[kQuestionsColumn].c_str(), row[kQuestionsColumn].size()),
                link);
  return link;
}

std::string freeSlug(const std::string& base, const std::set<std::string>& taken) {
  if (!taken.count(base)) return base;
  for (int n = 2;; ++n) {
    std::string candidate = base + "-" + std::to_string(n);
    if (!taken.count(candidate)) return candidate;
  }
}

}  // namespace

void PgLinksStore::prepare(pqxx::connection& c) {
  c.prepare(kLockWorkspace, kLockWorkspaceSql);
  c.prepare(kCountAll, kCountAllSql);
  c.prepare(kSlugsLike, kSlugsLikeSql);
  c.prepare(kInsertLink, kInsertLinkSql);
  c.prepare(kSelectLink, kSelectLinkSql);
  c.prepare(kSelectLinkBySlug, kSelectLinkBySlugSql);
  c.prepare(kSelectLinkForUpdate, kSelectLinkForUpdateSql);
  c.prepare(kUpdateLink, kUpdateLinkSql);
  c.prepare(kCountFiltered, kCountFilteredSql);
  c.prepare(kListFiltered, kListFilteredSql);
  c.prepare(kDeleteLink, kDeleteLinkSql);
  c.prepare(kLockWebhookChanges, kLockWebhookChangesSql);
  c.prepare(kForgetWebhookChange, kForgetWebhookChangeSql);
  prepareReports(c);
}

LinksStore::InsertOutcome PgLinksStore::insertLink(const std::string& workspace_uuid,
                                                   int link_quota, const std::string& slug_base,
                                                   v1::Link& link, const OnFinished& on_finished) {
  auto insert = [&](pqxx::transaction_base& tx) {
    const auto& s = link.settings();
    auto rows = tx.exec_prepared(
        kInsertLink, link.uuid(), workspace_uuid, link.name(), link.slug(), link.status(),
        sql::nullUnless(s.has_description(), s.description()), s.thank_you_message(),
        sql::nullUnless(s.has_redirect_url(), s.redirect_url()), s.tts_enabled(),
        s.live_transcription(),
        sql::nullUnless(!on_finished.webhook_url.empty(), on_finished.webhook_url),
        sql::nullUnless(!on_finished.sealed_secret.empty(), on_finished.sealed_secret),
        questionsJson(link));
    if (rows.empty()) return false;
    link.set_date_created_micros(rows[0][0].as<int64_t>());
    link.set_date_updated_micros(rows[0][1].as<int64_t>());
    link.set_version(rows[0][2].as<int64_t>());
    for (auto& q : *link.mutable_questions()) {
      q.set_date_created_micros(link.date_created_micros());
      q.set_date_updated_micros(link.date_created_micros());
    }
    return true;
  };

  // With no quota and a given slug the unique index is all the protection needed: one
  // statement, committed on its own.
  if (link_quota < 0 && !link.slug().empty()) {
    pqxx::nontransaction tx(connection_);
    return insert(tx) ? InsertOutcome::kInserted : InsertOutcome::kSlugTaken;
  }
  pqxx::work tx(connection_);
  tx.exec_prepared(kLockWorkspace, workspace_uuid);
  if (link_quota >= 0 &&
      tx.exec_prepared1(kCountAll, workspace_uuid)[0].as<int64_t>() >= link_quota) {
    return InsertOutcome::kQuotaReached;
  }
  if (link.slug().empty()) {
    std::set<std::string> taken;
    for (const auto& row : tx.exec_prepared(kSlugsLike, workspace_uuid, slug_base)) {
      taken.insert(row[0].as<std::string>());
    }
    link.set_slug(freeSlug(slug_base, taken));
  }
  if (!insert(tx)) return InsertOutcome::kSlugTaken;
  tx.commit();
  return InsertOutcome::kInserted;
}

std::optional<v1::Link> PgLinksStore::findLink(const std::string& workspace_uuid,
                                               const std::string& link_uuid) {
  pqxx::nontransaction tx(connection_);
  auto result = tx.exec_prepared(kSelectLink, workspace_uuid, link_uuid);
  if (result.empty()) return std::nullopt;
  return linkFrom(result[0]);
}

std::optional<v1::Link> PgLinksStore::findLinkBySlug(const std::string& workspace_uuid,
                                                     const std::string& slug) {
  pqxx::nontransaction tx(connection_);
  auto result = tx.exec_prepared(kSelectLinkBySlug, workspace_uuid, slug);
  if (result.empty()) return std::nullopt;
  return linkFrom(result[0]);
}

int64_t PgLinksStore::countLinks(const std::string& workspace_uuid, const LinkFilter& filter) {
  pqxx::nontransaction tx(connection_);
  return tx.exec_prepared1(kCountFiltered, workspace_uuid, filter.status, filter.search)[0]
      .as<int64_t>();
}

std::vector<v1::Link> PgLinksStore::listLinks(const std::string& workspace_uuid,
                                              const LinkFilter& filter, int64_t offset, int limit) {
  pqxx::nontransaction tx(connection_);
  std::vector<v1::Link> links;
  for (const auto& row : tx.exec_prepared(kListFiltered, workspace_uuid, filter.status,
                                          filter.search, limit, offset)) {
    links.push_back(linkFrom(row));
  }
  return links;
}

LinksStore::UpdateOutcome PgLinksStore::updateLink(
    const std::string& workspace_uuid, const std::string& link_uuid,
    const std::function<bool(v1::Link&)>& apply, v1::Link& updated,
    const std::function<void(int64_t)>& before_commit) {
  pqxx::work tx(connection_);
  auto result = tx.exec_prepared(kSelectLinkForUpdate, workspace_uuid, link_uuid);
  if (result.empty()) return UpdateOutcome::kNotFound;
  updated = linkFrom(result[0]);
  const int64_t now = result[0][kQuestionsColumn + 1].as<int64_t>();
  if (apply(updated)) {
    for (auto& q : *updated.mutable_questions()) {
      if (q.date_created_micros() == 0) q.set_date_created_micros(now);
      q.set_date_updated_micros(now);
    }
  }
  const auto& s = updated.settings();
  try {
    // A subtransaction keeps the transaction usable when the new slug is taken.
    pqxx::subtransaction save(tx, "update_link");
    auto row = save.exec_prepared1(
        kUpdateLink, updated.uuid(), updated.name(), updated.slug(), updated.status(),
        sql::nullUnless(s.has_description(), s.description()), s.thank_you_message(),
        sql::nullUnless(s.has_redirect_url(), s.redirect_url()), s.tts_enabled(),
        s.live_transcription(), questionsJson(updated), now);
    save.commit();
    updated.set_version(row[0].as<int64_t>());
    updated.set_date_updated_micros(now);
  } catch (const pqxx::unique_violation&) {
    return UpdateOutcome::kSlugTaken;
  }
  before_commit(updated.version());
  tx.commit();
  return UpdateOutcome::kUpdated;
}

bool PgLinksStore::deleteLink(const std::string& workspace_uuid, const std::string& link_uuid,
                              const std::function<void()>& before_commit) {
  pqxx::work tx(connection_);
  if (tx.exec_prepared(kDeleteLink, workspace_uuid, link_uuid).empty()) return false;
  before_commit();
  tx.commit();
  return true;
}

int PgLinksStore::applyWebhookChanges(const std::string& link_uuid, int limit,
                                      const std::function<void(const WebhookChange&)>& apply) {
  pqxx::work tx(connection_);
  int applied = 0;
  for (const auto& row : tx.exec_prepared(kLockWebhookChanges, link_uuid, limit)) {
    WebhookChange change;
    change.workspace_uuid = row[1].as<std::string>();
    change.link_uuid = row[2].as<std::string>();
    if (!row[3].is_null()) change.webhook_url = row[3].as<std::string>();
    if (!row[4].is_null()) change.sealed_secret = row[4].as<std::string>();
    try {
      apply(change);
    } catch (const std::exception&) {
      if (applied == 0) throw;
      break;
    }
    tx.exec_prepared(kForgetWebhookChange, row[0].as<int64_t>());
    ++applied;
  }
  tx.commit();
  return applied;
}

}  // namespace feedback::links
