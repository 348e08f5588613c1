#include "services/links/pg_links_store.h"

#include <pqxx/pqxx>
#include <set>

namespace feedback::links {
namespace {

#define MICROS(column) "(extract(epoch FROM " column ") * 1000000)::bigint"
#define LINK_COLUMNS                                                                      \
  "uuid, name, slug, status, description, thank_you_message, redirect_url, tts_enabled, " \
  "live_transcription, " MICROS("date_created") ", " MICROS("date_updated")
#define QUESTION_COLUMNS                                                                      \
  "link_uuid, uuid, prompt, field_key, response_type, configuration, display_order, "         \
  "required, condition, enable_dynamic_probing, fallback_to_text, evaluator_config, " MICROS( \
      "date_created") ", " MICROS("date_updated")
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

constexpr const char* kInsertLink = "links_insert_link";
constexpr const char* kInsertLinkSql =
    "INSERT INTO links.links (uuid, workspace_uuid, name, slug, status, description, "
    "thank_you_message, redirect_url, tts_enabled, live_transcription, "
    "on_finished_webhook_url, on_finished_webhook_secret_sealed) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) "
    "ON CONFLICT (workspace_uuid, slug) DO NOTHING "
    "RETURNING " MICROS("date_created") ", " MICROS("date_updated");

constexpr const char* kInsertQuestion = "links_insert_question";
constexpr const char* kInsertQuestionSql =
    "INSERT INTO links.questions (uuid, link_uuid, position, prompt, field_key, response_type, "
    "configuration, display_order, required, condition, enable_dynamic_probing, "
    "fallback_to_text, evaluator_config, date_created) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, "
    // A question kept by PATCH keeps its creation time (given in microseconds).
    "COALESCE('epoch'::timestamptz + $14::bigint * interval '1 microsecond', clock_timestamp())) "
    "RETURNING " MICROS("date_created") ", " MICROS("date_updated");

constexpr const char* kSelectLink = "links_select_link";
constexpr const char* kSelectLinkSql =
    "SELECT " LINK_COLUMNS " FROM links.links WHERE workspace_uuid = $1 AND uuid = $2";

constexpr const char* kSelectLinkForUpdate = "links_select_link_for_update";
constexpr const char* kSelectLinkForUpdateSql =
    "SELECT " LINK_COLUMNS " FROM links.links WHERE workspace_uuid = $1 AND uuid = $2 FOR UPDATE";

constexpr const char* kUpdateLink = "links_update_link";
constexpr const char* kUpdateLinkSql =
    "UPDATE links.links SET name = $2, slug = $3, status = $4, description = $5, "
    "thank_you_message = $6, redirect_url = $7, tts_enabled = $8, live_transcription = $9, "
    "date_updated = clock_timestamp() WHERE uuid = $1 RETURNING " MICROS("date_updated");

constexpr const char* kDeleteQuestions = "links_delete_questions";
constexpr const char* kDeleteQuestionsSql = "DELETE FROM links.questions WHERE link_uuid = $1";

constexpr const char* kSelectQuestions = "links_select_questions";
constexpr const char* kSelectQuestionsSql =
    "SELECT " QUESTION_COLUMNS
    " FROM links.questions WHERE link_uuid = ANY($1::uuid[]) "
    "ORDER BY link_uuid, display_order, position";

constexpr const char* kCountFiltered = "links_count_filtered";
constexpr const char* kCountFilteredSql = "SELECT count(*) FROM links.links WHERE " FILTER;

constexpr const char* kListFiltered = "links_list_filtered";
constexpr const char* kListFilteredSql =
    "SELECT " LINK_COLUMNS " FROM links.links WHERE " FILTER
    " ORDER BY date_created DESC, uuid DESC LIMIT $4 OFFSET $5";

constexpr const char* kDeleteLink = "links_delete_link";
constexpr const char* kDeleteLinkSql =
    "DELETE FROM links.links WHERE workspace_uuid = $1 AND uuid = $2";

#undef FILTER
#undef QUESTION_COLUMNS
#undef LINK_COLUMNS
#undef MICROS

// NULL for an absent optional string.
const char* optional(bool present, const std::string& value) {
  return present ? value.c_str() : nullptr;
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
  return link;
}

void questionFrom(const pqxx::row& row, v1::Question& q) {
  q.set_uuid(row[1].as<std::string>());
  q.set_prompt(row[2].as<std::string>());
  q.set_field_key(row[3].as<std::string>());
  q.set_response_type(row[4].as<std::string>());
  q.set_configuration_json(row[5].as<std::string>());
  q.set_order(row[6].as<int>());
  q.set_required(row[7].as<bool>());
  q.set_condition_json(row[8].as<std::string>());
  q.set_enable_dynamic_probing(row[9].as<bool>());
  q.set_fallback_to_text(row[10].as<bool>());
  q.set_evaluator_config_json(row[11].as<std::string>());
  q.set_date_created_micros(row[12].as<int64_t>());
  q.set_date_updated_micros(row[13].as<int64_t>());
}

// Attaches questions to their links with one query for the whole page.
void attachQuestions(pqxx::transaction_base& tx, std::vector<v1::Link>& links) {
  if (links.empty()) return;
  std::string uuids = "{";
  for (const auto& link : links) {
    if (uuids.size() > 1) uuids += ',';
    uuids += link.uuid();
  }
  uuids += '}';
  for (const auto& row : tx.exec_prepared(kSelectQuestions, uuids)) {
    auto link_uuid = row[0].as<std::string>();
    for (auto& link : links) {
      if (link.uuid() == link_uuid) {
        questionFrom(row, *link.add_questions());
        break;
      }
    }
  }
}

std::string freeSlug(const std::string& base, const std::set<std::string>& taken) {
  if (!taken.count(base)) return base;
  for (int n = 2;; ++n) {
    std::string candidate = base + "-" + std::to_string(n);
    if (!taken.count(candidate)) return candidate;
  }
}

void insertQuestions(pqxx::transaction_base& tx, v1::Link& link) {
  int position = 0;
  for (auto& q : *link.mutable_questions()) {
    std::string kept = std::to_string(q.date_created_micros());
    auto row = tx.exec_prepared1(
        kInsertQuestion, q.uuid(), link.uuid(), position++, q.prompt(), q.field_key(),
        q.response_type(), q.configuration_json(), q.order(), q.required(), q.condition_json(),
        q.enable_dynamic_probing(), q.fallback_to_text(), q.evaluator_config_json(),
        q.date_created_micros() ? kept.c_str() : nullptr);
    q.set_date_created_micros(row[0].as<int64_t>());
    q.set_date_updated_micros(row[1].as<int64_t>());
  }
}

}  // namespace

void PgLinksStore::prepare(pqxx::connection& c) {
  c.prepare(kLockWorkspace, kLockWorkspaceSql);
  c.prepare(kCountAll, kCountAllSql);
  c.prepare(kSlugsLike, kSlugsLikeSql);
  c.prepare(kInsertLink, kInsertLinkSql);
  c.prepare(kInsertQuestion, kInsertQuestionSql);
  c.prepare(kSelectLink, kSelectLinkSql);
  c.prepare(kSelectQuestions, kSelectQuestionsSql);
  c.prepare(kSelectLinkForUpdate, kSelectLinkForUpdateSql);
  c.prepare(kUpdateLink, kUpdateLinkSql);
  c.prepare(kDeleteQuestions, kDeleteQuestionsSql);
  c.prepare(kCountFiltered, kCountFilteredSql);
  c.prepare(kListFiltered, kListFilteredSql);
  c.prepare(kDeleteLink, kDeleteLinkSql);
}

LinksStore::InsertOutcome PgLinksStore::insertLink(const std::string& workspace_uuid,
                                                   int link_quota, const std::string& slug_base,
                                                   v1::Link& link, const OnFinished& on_finished) {
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
  const auto& s = link.settings();
  auto inserted = tx.exec_prepared(
      kInsertLink, link.uuid(), workspace_uuid, link.name(), link.slug(), link.status(),
      optional(s.has_description(), s.description()), s.thank_you_message(),
      optional(s.has_redirect_url(), s.redirect_url()), s.tts_enabled(), s.live_transcription(),
      optional(!on_finished.webhook_url.empty(), on_finished.webhook_url),
      optional(!on_finished.sealed_secret.empty(), on_finished.sealed_secret));
  if (inserted.empty()) return InsertOutcome::kSlugTaken;
  link.set_date_created_micros(inserted[0][0].as<int64_t>());
  link.set_date_updated_micros(inserted[0][1].as<int64_t>());
  insertQuestions(tx, link);
  tx.commit();
  return InsertOutcome::kInserted;
}

std::optional<v1::Link> PgLinksStore::findLink(const std::string& workspace_uuid,
                                               const std::string& link_uuid) {
  pqxx::read_transaction tx(connection_);
  auto result = tx.exec_prepared(kSelectLink, workspace_uuid, link_uuid);
  if (result.empty()) return std::nullopt;
  std::vector<v1::Link> links{linkFrom(result[0])};
  attachQuestions(tx, links);
  return std::move(links.front());
}

int64_t PgLinksStore::countLinks(const std::string& workspace_uuid, const LinkFilter& filter) {
  pqxx::read_transaction tx(connection_);
  return tx.exec_prepared1(kCountFiltered, workspace_uuid, filter.status, filter.search)[0]
      .as<int64_t>();
}

std::vector<v1::Link> PgLinksStore::listLinks(const std::string& workspace_uuid,
                                              const LinkFilter& filter, int64_t offset, int limit) {
  pqxx::read_transaction tx(connection_);
  std::vector<v1::Link> links;
  for (const auto& row : tx.exec_prepared(kListFiltered, workspace_uuid, filter.status,
                                          filter.search, limit, offset)) {
    links.push_back(linkFrom(row));
  }
  attachQuestions(tx, links);
  return links;
}

LinksStore::UpdateOutcome PgLinksStore::updateLink(const std::string& workspace_uuid,
                                                   const std::string& link_uuid,
                                                   const std::function<bool(v1::Link&)>& apply,
                                                   v1::Link& updated) {
  pqxx::work tx(connection_);
  auto result = tx.exec_prepared(kSelectLinkForUpdate, workspace_uuid, link_uuid);
  if (result.empty()) return UpdateOutcome::kNotFound;
  std::vector<v1::Link> links{linkFrom(result[0])};
  attachQuestions(tx, links);
  updated = std::move(links.front());
  bool questions_replaced = apply(updated);
  const auto& s = updated.settings();
  try {
    // A subtransaction keeps the transaction usable when the new slug is taken.
    pqxx::subtransaction save(tx, "update_link");
    auto row = save.exec_prepared1(
        kUpdateLink, updated.uuid(), updated.name(), updated.slug(), updated.status(),
        optional(s.has_description(), s.description()), s.thank_you_message(),
        optional(s.has_redirect_url(), s.redirect_url()), s.tts_enabled(), s.live_transcription());
    save.commit();
    updated.set_date_updated_micros(row[0].as<int64_t>());
  } catch (const pqxx::unique_violation&) {
    return UpdateOutcome::kSlugTaken;
  }
  if (questions_replaced) {
    tx.exec_prepared(kDeleteQuestions, updated.uuid());
    insertQuestions(tx, updated);
  }
  tx.commit();
  return UpdateOutcome::kUpdated;
}

bool PgLinksStore::deleteLink(const std::string& workspace_uuid, const std::string& link_uuid) {
  pqxx::work tx(connection_);
  auto result = tx.exec_prepared0(kDeleteLink, workspace_uuid, link_uuid);
  tx.commit();
  return result.affected_rows() > 0;
}

}  // namespace feedback::links
