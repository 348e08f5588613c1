#include "services/gateway/json/link_requests.h"

#include <algorithm>

#include "common/core/json_text.h"
#include "services/gateway/http/json_input.h"

namespace feedback::gateway {
namespace {

namespace lv1 = feedback::links::v1;

void readSettings(const boost::json::object& object, lv1::LinkSettings& out) {
  JsonFields f(
      object, "settings",
      {"description", "thankYouMessage", "redirectUrl", "tts_enabled", "live_transcription"});
  if (auto v = f.text("description")) out.set_description(*v);
  if (auto v = f.text("thankYouMessage")) out.set_thank_you_message(*v);
  if (auto v = f.text("redirectUrl")) out.set_redirect_url(*v);
  if (auto v = f.boolean("tts_enabled")) out.set_tts_enabled(*v);
  if (auto v = f.boolean("live_transcription")) out.set_live_transcription(*v);
}

// PATCH may name existing questions by uuid; creation may not.
enum class QuestionKeys { kCreate, kUpdate };

void readQuestion(const boost::json::value& value, const std::string& path, QuestionKeys keys,
                  lv1::QuestionDraft& out) {
  if (!value.is_object()) {
    throw ApiError(ErrorCode::kValidationError, "Every question must be an object.",
                   {{path, "must be an object"}});
  }
  const auto& object = value.as_object();
  JsonFields f = keys == QuestionKeys::kUpdate
                     ? JsonFields(object, path,
                                  {"uuid", "prompt", "type", "field_key", "order", "required",
                                   "configuration", "condition", "enable_dynamic_probing",
                                   "fallback_to_text", "evaluator_config"})
                     : JsonFields(object, path,
                                  {"prompt", "type", "field_key", "order", "required",
                                   "configuration", "condition", "enable_dynamic_probing",
                                   "fallback_to_text", "evaluator_config"});
  if (auto v = f.text("uuid")) out.set_uuid(*v);
  if (auto v = f.text("prompt")) out.set_prompt(*v);
  if (auto v = f.text("type", ErrorCode::kInvalidQuestionType)) out.set_type(*v);
  if (auto v = f.text("field_key")) out.set_field_key(*v);
  if (auto v = f.integer("order")) {
    // Out-of-range values are clamped so that the links service reports them.
    out.set_order(static_cast<int32_t>(std::clamp<int64_t>(*v, -1, 1000001)));
  }
  if (auto v = f.boolean("required")) out.set_required(*v);
  if (const auto* o = f.object("configuration", ErrorCode::kInvalidConfiguration)) {
    out.set_configuration_json(jsonText(*o));
  }
  if (const auto* o = f.object("condition", ErrorCode::kInvalidCondition)) {
    out.set_condition_json(jsonText(*o));
  }
  if (auto v = f.boolean("enable_dynamic_probing")) out.set_enable_dynamic_probing(*v);
  if (auto v = f.boolean("fallback_to_text")) out.set_fallback_to_text(*v);
  if (const auto* o = f.object("evaluator_config")) out.set_evaluator_config_json(jsonText(*o));
}

}  // namespace

lv1::CreateLinkRequest createLinkRequest(const boost::json::object& body,
                                         const feedback::common::v1::Caller& caller) {
  JsonFields f(body, "", {"name", "slug", "status", "settings", "questions", "on_finished"});
  lv1::CreateLinkRequest request;
  *request.mutable_caller() = caller;
  if (auto v = f.text("name")) request.set_name(*v);
  if (auto v = f.text("slug", ErrorCode::kInvalidSlug)) request.set_slug(*v);
  if (auto v = f.text("status")) request.set_status(*v);
  if (const auto* o = f.object("settings")) readSettings(*o, *request.mutable_settings());
  if (const auto* questions = f.array("questions")) {
    for (std::size_t i = 0; i < questions->size(); ++i) {
      readQuestion((*questions)[i], "questions[" + std::to_string(i) + "]", QuestionKeys::kCreate,
                   *request.add_questions());
    }
  }
  if (const auto* o = f.object("on_finished")) {
    JsonFields on(*o, "on_finished", {"webhook_url", "webhook_secret"});
    if (auto v = on.text("webhook_url", ErrorCode::kInvalidWebhookUrl)) {
      request.mutable_on_finished()->set_webhook_url(*v);
    }
    if (auto v = on.text("webhook_secret")) request.mutable_on_finished()->set_webhook_secret(*v);
  }
  return request;
}

lv1::UpdateLinkRequest updateLinkRequest(const boost::json::object& body,
                                         const feedback::common::v1::Caller& caller,
                                         const std::string& link_uuid) {
  JsonFields f(body, "", {"name", "slug", "status", "settings", "questions"});
  lv1::UpdateLinkRequest request;
  *request.mutable_caller() = caller;
  request.set_link_uuid(link_uuid);
  auto given = [&body](std::string_view key) { return body.contains(key); };
  if (given("name")) request.set_name(f.text("name").value_or(""));
  if (given("slug")) request.set_slug(f.text("slug", ErrorCode::kInvalidSlug).value_or(""));
  if (given("status")) request.set_status(f.text("status").value_or(""));
  if (const auto* o = f.object("settings")) {
    readSettings(*o, *request.mutable_settings());
    static constexpr std::pair<std::string_view, std::string_view> kNames[] = {
        {"description", "description"},
        {"thankYouMessage", "thank_you_message"},
        {"redirectUrl", "redirect_url"},
        {"tts_enabled", "tts_enabled"},
        {"live_transcription", "live_transcription"}};
    for (const auto& [json_name, proto_name] : kNames) {
      const auto* v = o->if_contains(json_name);
      if (v && v->is_null()) request.add_reset_settings(std::string(proto_name));
    }
  }
  if (given("questions")) {
    request.set_replace_questions(true);
    const auto* questions = f.array("questions");
    for (std::size_t i = 0; questions && i < questions->size(); ++i) {
      readQuestion((*questions)[i], "questions[" + std::to_string(i) + "]", QuestionKeys::kUpdate,
                   *request.add_questions());
    }
  }
  return request;
}

}  // namespace feedback::gateway
