#include "services/responses/responses_service.h"

#include <algorithm>
#include <boost/json/parse.hpp>

#include "common/api/response_json.h"
#include "common/core/crypto.h"
#include "common/core/errors.h"
#include "common/core/ids.h"
#include "common/core/json_text.h"
#include "common/core/limits.h"
#include "common/core/log.h"
#include "common/core/pagination.h"
#include "common/core/text.h"
#include "common/core/time.h"
#include "common/questions/answer_rules.h"
#include "services/responses/events.h"
#include "services/responses/intake_form.h"
#include "services/responses/link_summary.h"
#include "services/responses/media/media_answers.h"
#include "services/responses/stored_answers.h"

namespace feedback::responses {
namespace {

constexpr std::size_t kTokenLength = 32;
// The token hash of a response that has no token (not hex, so no SHA-256 equals it).
constexpr std::string_view kNoToken = "none";

// A new response to the form's link, started now: fresh ids, `status`, the respondent's
// email when given (VALIDATION_ERROR unless it is one).
StoredResponse newResponse(const IntakeForm& form, std::string_view status, bool has_email,
                           const std::string& email) {
  StoredResponse stored;
  stored.workspace_uuid = form.workspaceUuid();
  stored.facts_layout = form.factsLayout();
  auto& r = stored.response;
  r.set_uuid(newTimeOrderedUuid());
  r.set_session_id(newUuid());
  r.set_link_uuid(form.link().uuid());
  r.set_status(std::string(status));
  if (auto checked = respondentEmail(has_email, email)) r.set_respondent_email(*checked);
  r.set_started_at_micros(nowMicros());
  return stored;
}

// A given value; null when empty. Text that is not JSON (only internal callers can send it)
// is an invalid answer like any other.
boost::json::value givenValue(const v1::AnswerInput& input) {
  if (input.value_json().empty()) return nullptr;
  boost::system::error_code ec;
  auto value = boost::json::parse(input.value_json(), ec);
  if (ec || holdsNonFinite(value)) {
    throw ApiError(ErrorCode::kInvalidAnswer, "An answer is not JSON.",
                   {{input.field_key(), "is not JSON"}});
  }
  return value;
}

questions::AnswerValues valuesOf(const google::protobuf::RepeatedPtrField<v1::AnswerInput>& given) {
  questions::AnswerValues out;
  for (const auto& input : given) out[input.field_key()] = givenValue(input);
  return out;
}

// One submission's part in its link's count (LinkCounts): begun before anything commits,
// settled with the count read after the commit, or settled without one when nothing did.
class CountedSubmission {
 public:
  CountedSubmission(LinkCounts& counts, ResponsesStore& store, std::string workspace_uuid,
                    std::string link_uuid, const std::string& response_uuid)
      // One name per attempt: two attempts at submitting one response must not end each
      // other's entry (an attempt that is refused would let its link be trusted while the
      // other still commits).
      : counts_(counts),
        store_(store),
        workspace_uuid_(std::move(workspace_uuid)),
        link_uuid_(std::move(link_uuid)),
        submission_{response_uuid + ":" + newUuid()} {
    counts_.begin(link_uuid_, submission_);
  }
  ~CountedSubmission() {
    if (!settled_) counts_.settle(link_uuid_, std::nullopt, submission_);
  }
  CountedSubmission(const CountedSubmission&) = delete;
  CountedSubmission& operator=(const CountedSubmission&) = delete;

  // After the commit. Should the count not be readable now, the link stays pending: the
  // gateways then read its count from PostgreSQL, which is right, only slower.
  void committed() {
    settled_ = true;
    const std::string& link = link_uuid_;
    std::map<std::string, int64_t> counts;
    const int64_t started_ms = nowMicros() / 1000;
    try {
      counts = store_.completedCounts(workspace_uuid_, {link});
    } catch (const std::exception& e) {
      log::warn("response_count_unread", {{"link_uuid", link}, {"error", e.what()}});
      return;
    }
    counts_.settle(link, CountRead{counts[link], started_ms}, submission_);
  }

  // When the write failed. A lost connection may have lost the answer to a commit that
  // happened: the link then stays pending rather than trusted too early.
  void failed(const std::exception_ptr& error) {
    if (isLostConnection(error)) settled_ = true;
  }

 private:
  LinkCounts& counts_;
  ResponsesStore& store_;
  const std::string workspace_uuid_;
  const std::string link_uuid_;
  const std::vector<std::string> submission_;
  bool settled_ = false;
};

}  // namespace

void setAnswers(StoredResponse& stored, std::vector<v1::Answer> answers) {
  stored.answers = std::move(answers);
  stored.response.set_answers_json(answersJson(stored.answers));
}

const questions::Question* answeredQuestion(const IntakeForm& form,
                                            const std::string& response_uuid,
                                            const std::string& field_key) {
  if (!isUuid(response_uuid)) noSuchResponse();
  const questions::Question* question = form.rules().find(field_key);
  if (!question) throw ApiError(ErrorCode::kNotFound, "This link has no such question.");
  return question;
}

void requireOpen(const StoredResponse& stored, const std::string& token, const IntakeForm& form) {
  if (!crypto::constantTimeEquals(crypto::sha256Hex(token), stored.token_hash) ||
      stored.response.link_uuid() != form.link().uuid()) {
    noSuchResponse();
  }
  if (stored.response.status() == kCompleted) {
    throw ApiError(ErrorCode::kResponseAlreadySubmitted,
                   "This response was already submitted and cannot change.");
  }
  form.requireActive();
}

std::optional<std::string> respondentEmail(bool given, const std::string& email) {
  if (!given) return std::nullopt;
  if (!questions::isEmailAddress(email)) {
    throw ApiError(ErrorCode::kValidationError,
                   "'respondent_email' must be an email address such as name@example.com.",
                   {{"respondent_email", "must be an email address"}});
  }
  return email;
}

void noSuchResponse() {
  throw ApiError(ErrorCode::kNotFound, "No such response.");
}

// The prompt of `question` as the respondent sees it while answering `value`, the response's
// other saved answers filling its placeholders.
std::string recalledPrompt(const IntakeForm& form, const questions::Question& question,
                           const std::vector<v1::Answer>& others, const boost::json::value& value) {
  if (question.prompt.find("{{") == std::string::npos) return question.prompt;
  questions::AnswerValues values;
  for (const auto& a : others) values[a.field_key()] = valueOf(a);
  values[question.field_key] = value;
  return form.rules().questionText(question, values);
}

std::string newResponseToken() {
  return crypto::randomBase62(kTokenLength);
}

Accepted<v1::StartResponseResponse> ResponsesService::startResponse(
    const v1::StartResponseRequest& request) {
  const auto compiled = forms_.of(request.link());
  const IntakeForm& form = *compiled;
  form.requireActive();
  StoredResponse stored =
      newResponse(form, kInProgress, request.has_respondent_email(), request.respondent_email());
  const auto& r = stored.response;
  setAnswers(stored, {});
  const std::string token = newResponseToken();
  stored.token_hash = crypto::sha256Hex(token);
  v1::StartResponseResponse response;
  response.set_uuid(r.uuid());
  response.set_session_id(r.session_id());
  response.set_token(token);
  auto event = makeEvent(kResponseStarted, r.started_at_micros(), form, api::renderResponse(r));
  return {NewResponse{std::move(stored), std::move(event)}, std::move(response)};
}

std::string ResponsesService::recordWithMedia(const v1::Response& response,
                                              const v1::IntakeLink& link) const {
  std::string record = api::renderResponse(response);
  if (!media_) return record;
  return media_->resolve(std::move(record), link.workspace_host(), link.workspace_uuid(),
                         api::unixSeconds());
}

void ResponsesService::keepAnswers(const std::vector<questions::KeptAnswer>& kept,
                                   StoredResponse& stored) const {
  std::map<std::string, const v1::Answer*> saved;
  for (const auto& a : stored.answers) saved[a.question_uuid()] = &a;
  std::vector<v1::Answer> answers;
  answers.reserve(kept.size());
  for (const auto& k : kept) {
    auto it = saved.find(k.question->uuid);
    const v1::Answer* before = it == saved.end() ? nullptr : it->second;
    if (k.recorded && before) {
      auto& recording = answers.emplace_back(*before);
      recording.clear_follow_up();
      continue;
    }
    auto& answer = answers.emplace_back(
        makeAnswer(*k.question, k.value, before ? before->uuid() : "", k.question_text));
    // Follow-ups belong to the value they followed: a value changed at the submit drops them.
    if (before && before->value_json() == answer.value_json()) {
      *answer.mutable_follow_ups() = before->follow_ups();
    }
    evaluation_.completed(*k.question, answer, before, stored.insight_jobs);
  }
  setAnswers(stored, std::move(answers));
}

v1::SaveAnswerResponse ResponsesService::saveAnswer(ResponsesStore& store,
                                                    const v1::SaveAnswerRequest& request) {
  const auto compiled = forms_.of(request.link());
  const IntakeForm& form = *compiled;
  const auto& field_key = request.answer().field_key();
  const questions::Question* question = answeredQuestion(form, request.response_uuid(), field_key);
  v1::SaveAnswerResponse response;
  bool found = store.updateResponse(
      form.workspaceUuid(), request.response_uuid(), [&](StoredResponse& stored) {
        // The token first: without it nothing about the response, its answers included, is
        // anyone's business.
        requireOpen(stored, request.token(), form);
        boost::json::value value = givenValue(request.answer());
        // {} clears an object answer, as null does.
        if (questions::leftBlank(*question, value)) value = nullptr;
        if (!value.is_null()) {
          if (auto problem = questions::FormRules::answerProblem(*question, value)) {
            throw ApiError(ErrorCode::kInvalidAnswer,
                           "The answer to '" + field_key + "' " + *problem + ".",
                           {{field_key, *problem}});
          }
        }
        std::vector<v1::Answer> answers = std::move(stored.answers);
        std::optional<v1::Answer> before;
        for (auto it = answers.begin(); it != answers.end(); ++it) {
          if (it->field_key() != field_key) continue;
          before = std::move(*it);
          answers.erase(it);
          break;
        }
        auto& answer = *response.mutable_answer();
        answer = makeAnswer(*question, value, before ? before->uuid() : "",
                            recalledPrompt(form, *question, answers, value));
        // The same answer again keeps its follow-ups; another one starts probing afresh.
        if (before && before->value_json() == answer.value_json()) {
          *answer.mutable_follow_ups() = before->follow_ups();
        }
        evaluation_.saved(*question, answer, before ? &*before : nullptr, stored.insight_jobs);
        if (!value.is_null()) answers.push_back(answer);
        setAnswers(stored, std::move(answers));
        return std::optional<ResponsesStore::Change>(ResponsesStore::Change{});
      });
  if (!found) noSuchResponse();
  return response;
}

v1::AnswerFollowUpResponse ResponsesService::answerFollowUp(
    ResponsesStore& store, const v1::AnswerFollowUpRequest& request) {
  const auto compiled = forms_.of(request.link());
  const IntakeForm& form = *compiled;
  const auto& field_key = request.answer().field_key();
  const questions::Question* question = answeredQuestion(form, request.response_uuid(), field_key);
  v1::AnswerFollowUpResponse response;
  bool found = store.updateResponse(
      form.workspaceUuid(), request.response_uuid(), [&](StoredResponse& stored) {
        requireOpen(stored, request.token(), form);
        auto answer = std::find_if(stored.answers.begin(), stored.answers.end(),
                                   [&](const v1::Answer& a) { return a.field_key() == field_key; });
        if (answer == stored.answers.end() || !answer->has_follow_up()) {
          throw ApiError(ErrorCode::kNoFollowUpPending,
                         "The answer to '" + field_key + "' has no follow-up question waiting.");
        }
        const boost::json::value value = givenValue(request.answer());
        if (!value.is_string() || !questions::isAnswered(value) ||
            questions::characterCount(value.get_string()) > limits::kMaxTextAnswerCharacters) {
          const std::string problem = "must be text of 1 to " +
                                      std::to_string(limits::kMaxTextAnswerCharacters) +
                                      " characters";
          throw ApiError(ErrorCode::kInvalidAnswer,
                         "The follow-up answer to '" + field_key + "' " + problem + ".",
                         {{field_key, problem}});
        }
        const v1::Answer before = *answer;
        auto* follow_up = answer->add_follow_ups();
        follow_up->set_prompt(answer->follow_up());
        follow_up->set_value(std::string(value.get_string()));
        follow_up->set_date_created_micros(nowMicros());
        evaluation_.saved(*question, *answer, &before, stored.insight_jobs);
        *response.mutable_answer() = *answer;
        setAnswers(stored, std::move(stored.answers));
        return std::optional<ResponsesStore::Change>(ResponsesStore::Change{});
      });
  if (!found) noSuchResponse();
  return response;
}

v1::SubmitResponseResponse ResponsesService::submitResponse(
    ResponsesStore& store, const v1::SubmitResponseRequest& request) {
  const auto compiled = forms_.of(request.link());
  const IntakeForm& form = *compiled;
  if (!isUuid(request.response_uuid())) noSuchResponse();

  // Checked before the link's count is touched, so that calls without the token cost little.
  auto current = store.findResponse(form.workspaceUuid(), request.response_uuid());
  if (!current) noSuchResponse();
  requireOpen(*current, request.token(), form);

  v1::SubmitResponseResponse response;
  CountedSubmission counted(counts_, store, form.workspaceUuid(), form.link().uuid(),
                            request.response_uuid());
  bool found = false;
  try {
    found = store.updateResponse(
        form.workspaceUuid(), request.response_uuid(), [&](StoredResponse& stored) {
          requireOpen(stored, request.token(), form);
          stored.facts_layout = form.factsLayout();
          const questions::AnswerValues given = valuesOf(request.answers());
          auto& r = stored.response;
          // Saved answers, where the question still exists, then the ones given now.
          questions::AnswerValues merged;
          questions::RecordedAnswers recorded;
          for (const auto& a : stored.answers) {
            if (!form.rules().find(a.field_key())) continue;
            // Files and recordings were judged when they were uploaded.
            if (a.has_audio_url() || blobOfAnswer(a)) {
              recorded.insert(a.field_key());
            } else {
              merged[a.field_key()] = valueOf(a);
            }
          }
          for (const auto& [key, value] : given) merged[key] = value;
          keepAnswers(form.rules().complete(merged, recorded), stored);
          r.set_status(std::string(kCompleted));
          r.set_submitted_at_micros(nowMicros());
          *response.mutable_response() = r;
          return std::optional<ResponsesStore::Change>(
              ResponsesStore::Change{{makeEvent(kResponseSubmitted, r.submitted_at_micros(), form,
                                                recordWithMedia(r, request.link()))},
                                     true});
        });
  } catch (...) {
    counted.failed(std::current_exception());
    throw;
  }
  if (!found) noSuchResponse();
  counted.committed();
  return response;
}

Accepted<std::string> ResponsesService::createCompletedResponse(
    const v1::IntakeLink& link, const v1::CompletedSubmission& submission) {
  const auto compiled = forms_.of(link);
  const IntakeForm& form = *compiled;
  form.requireActive();
  auto kept = form.rules().complete(valuesOf(submission.answers()));

  StoredResponse stored = newResponse(form, kCompleted, submission.has_respondent_email(),
                                      submission.respondent_email());
  auto& r = stored.response;
  const int64_t now = r.started_at_micros();
  r.set_submitted_at_micros(now);
  keepAnswers(kept, stored);
  // Nobody can continue a response completed in one call: no token's hash equals this.
  stored.token_hash = std::string(kNoToken);

  // Both events describe the completed response, as it was stored.
  std::string record = api::renderResponse(r);
  auto both = makeCompletedEvents(now, form, record);
  return {NewResponse{std::move(stored), std::move(both)}, std::move(record)};
}

bool ResponsesService::reviseAnswer(ResponsesStore& store, const std::string& workspace_uuid,
                                    const std::string& response_uuid,
                                    const std::function<bool(StoredResponse&)>& change) {
  auto current = store.findResponse(workspace_uuid, response_uuid);
  if (!current) return false;
  std::optional<CountedSubmission> counted;
  if (current->response.status() == kCompleted) {
    counted.emplace(counts_, store, workspace_uuid, current->response.link_uuid(), response_uuid);
  }
  bool changed = false;
  try {
    store.updateResponse(workspace_uuid, response_uuid, [&](StoredResponse& stored) {
      if (!change(stored)) return std::optional<ResponsesStore::Change>();
      setAnswers(stored, std::move(stored.answers));
      changed = true;
      return std::optional<ResponsesStore::Change>(ResponsesStore::Change{});
    });
  } catch (...) {
    if (counted) counted->failed(std::current_exception());
    throw;
  }
  if (counted) counted->committed();
  return changed;
}

bool ResponsesService::applyInsights(ResponsesStore& store, const std::string& workspace_uuid,
                                     const std::string& response_uuid,
                                     const std::string& answer_uuid, const std::string& text,
                                     const std::string& insights_json) {
  return reviseAnswer(store, workspace_uuid, response_uuid, [&](StoredResponse& stored) {
    auto answer = std::find_if(stored.answers.begin(), stored.answers.end(),
                               [&](const v1::Answer& a) { return a.uuid() == answer_uuid; });
    if (answer == stored.answers.end() || answerText(*answer) != text) return false;
    answer->set_ai_insights_json(insights_json);
    return true;
  });
}

}  // namespace feedback::responses
