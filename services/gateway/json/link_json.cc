#include "services/gateway/json/link_json.h"

#include "common/core/time.h"

namespace feedback::gateway {
namespace {

namespace lv1 = feedback::links::v1;

void writeOptional(JsonWriter& json, std::string_view key, bool present, const std::string& v) {
  json.key(key);
  if (present) {
    json.string(v);
  } else {
    json.null();
  }
}

void writeSettings(JsonWriter& json, const lv1::LinkSettings& s) {
  json.key("settings").beginObject();
  writeOptional(json, "description", s.has_description(), s.description());
  json.field("thankYouMessage", s.thank_you_message());
  writeOptional(json, "redirectUrl", s.has_redirect_url(), s.redirect_url());
  json.field("tts_enabled", s.tts_enabled())
      .field("live_transcription", s.live_transcription())
      .endObject();
}

enum class QuestionView { kApi, kRespondent };

void writeQuestion(JsonWriter& json, const lv1::Question& q, QuestionView view) {
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
  if (view == QuestionView::kApi) {
    json.key("evaluator_config").raw(q.evaluator_config_json());
    json.field("date_created", formatTimestamp(q.date_created_micros()))
        .field("date_updated", formatTimestamp(q.date_updated_micros()));
  }
  json.endObject();
}

}  // namespace

void writeLink(JsonWriter& json, const lv1::Link& link, std::size_t* count_offset) {
  json.beginObject()
      .field("uuid", link.uuid())
      .field("name", link.name())
      .field("slug", link.slug())
      .field("status", link.status());
  writeSettings(json, link.settings());
  json.key("questions").beginArray();
  for (const auto& q : link.questions()) writeQuestion(json, q, QuestionView::kApi);
  json.endArray().key("response_count");
  if (count_offset) *count_offset = json.position();
  json.integer(count_offset ? 0 : link.response_count())
      .field("public_url", link.public_url())
      .field("date_created", formatTimestamp(link.date_created_micros()))
      .field("date_updated", formatTimestamp(link.date_updated_micros()))
      .endObject();
}

std::string renderLink(const lv1::Link& link) {
  std::string body;
  body.reserve(1024 + 512 * static_cast<std::size_t>(link.questions_size()));
  JsonWriter json(body);
  writeLink(json, link);
  return body;
}

LinkDocument renderLinkDocument(const lv1::Link& link) {
  LinkDocument doc;
  doc.json.reserve(1024 + 512 * static_cast<std::size_t>(link.questions_size()));
  JsonWriter json(doc.json);
  writeLink(json, link, &doc.count_offset);
  doc.link = std::make_shared<const lv1::Link>(link);
  doc.bytes = doc.json.size() + doc.link->SpaceUsedLong();
  return doc;
}

std::string renderForm(const lv1::Link& link) {
  std::string body;
  body.reserve(512 + 384 * static_cast<std::size_t>(link.questions_size()));
  JsonWriter json(body);
  json.beginObject()
      .field("name", link.name())
      .field("slug", link.slug())
      .field("status", link.status());
  writeSettings(json, link.settings());
  json.key("questions").beginArray();
  for (const auto& q : link.questions()) writeQuestion(json, q, QuestionView::kRespondent);
  json.endArray().endObject();
  return body;
}

}  // namespace feedback::gateway
