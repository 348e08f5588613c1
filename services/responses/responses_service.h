#pragma once
// The rules of responses: starting, answering and submitting on behalf of a respondent (the
// public intake), and reading a workspace's responses. Knows nothing of gRPC or SQL: requests
// and answers are the protobuf messages, storage is a ResponsesStore.

#include "common/api/media_urls.h"
#include "feedback/responses/v1/responses.pb.h"
#include "services/responses/answer_evaluation.h"
#include "services/responses/intake_form.h"
#include "services/responses/kept_summaries.h"
#include "services/responses/page_anchors.h"
#include "services/responses/response_writer.h"
#include "services/responses/responses_store.h"

namespace feedback::responses {

// A new response that the rules accepted, and the answer to give once it is stored: the
// caller hands `write` to a ResponseWriter and answers only when the writer reports success.
template <class Answer>
struct Accepted {
  NewResponse write;
  Answer answer;
};

class ResponsesService {
 public:
  // A submission of a started response is counted with `counts`; answers are judged by
  // `evaluator` (AI insights, clarity and follow-ups of dynamic probing).
  // `media` signs the addresses of files and recordings in event payloads (none: the
  // payloads keep their markers, as in unit tests).
  ResponsesService(LinkCounts& counts, const evaluation::Evaluator& evaluator,
                   InsightsMode insights = InsightsMode::kInline,
                   const api::MediaUrls* media = nullptr)
      : counts_(counts), evaluation_(evaluator, insights), media_(media) {}

  Accepted<v1::StartResponseResponse> startResponse(const v1::StartResponseRequest& request);
  v1::SaveAnswerResponse saveAnswer(ResponsesStore& store, const v1::SaveAnswerRequest& request);
  // NO_FOLLOW_UP_PENDING unless the answer has a follow-up prompt waiting.
  v1::AnswerFollowUpResponse answerFollowUp(ResponsesStore& store,
                                            const v1::AnswerFollowUpRequest& request);
  v1::SubmitResponseResponse submitResponse(ResponsesStore& store,
                                            const v1::SubmitResponseRequest& request);
  // Answers with the response's record as the API renders it.
  Accepted<std::string> createCompletedResponse(const v1::IntakeLink& link,
                                                const v1::CompletedSubmission& submission);
  v1::ListResponsesResponse listResponses(ResponsesStore& store,
                                          const v1::ListResponsesRequest& request);
  v1::GetResponseResponse getResponse(ResponsesStore& store, const v1::GetResponseRequest& request);
  v1::CountResponsesResponse countResponses(ResponsesStore& store,
                                            const v1::CountResponsesRequest& request);
  v1::GetLinkSummaryResponse linkSummary(ResponsesStore& store,
                                         const v1::GetLinkSummaryRequest& request);

  // Fills in the insights a queued job brought (InsightsMode::kQueued): into the answer when it
  // still says `text`, which was judged; otherwise nothing (a later job judges the new text).
  // A completed response's change is counted as a submission is, so that gateways stop
  // serving pages that showed it without. False when nothing changed.
  bool applyInsights(ResponsesStore& store, const std::string& workspace_uuid,
                     const std::string& response_uuid, const std::string& answer_uuid,
                     const std::string& text, const std::string& insights_json);
  // Changes a stored response's answers after the fact (insights a model brought, a
  // transcription): `change` says whether it changed anything. Counted like applyInsights.
  bool reviseAnswer(ResponsesStore& store, const std::string& workspace_uuid,
                    const std::string& response_uuid,
                    const std::function<bool(StoredResponse&)>& change);
  const AnswerEvaluation& evaluation() const { return evaluation_; }
  IntakeForms& forms() { return forms_; }

 private:
  // The latest texts of the link's text and voice questions (GetLinkSummaryRequest.quotes).
  void addQuotes(ResponsesStore& store, const v1::GetLinkSummaryRequest& request,
                 const std::vector<std::string>& text_questions,
                 v1::GetLinkSummaryResponse& response) const;
  // The answers a completed response keeps, built from the rules' verdict; answers that were
  // saved before keep their uuids and follow-ups.
  void keepAnswers(const std::vector<questions::KeptAnswer>& kept, StoredResponse& stored) const;
  // The record as an event carries it: its files and recordings signed for the link's host.
  std::string recordWithMedia(const v1::Response& response, const v1::IntakeLink& link) const;
  // The `limit` rows of the page at `offset` of a list of `count` at `version` (Count), sought
  // from an anchor when there is one near, else by offset from the nearer end.
  ResponsesStore::Rows readPage(ResponsesStore& store, const ResponseFilter& filter, Ordering order,
                                int64_t offset, int limit, const ResponsesStore::Count& count,
                                const std::optional<std::string>& list);

  LinkCounts& counts_;
  AnswerEvaluation evaluation_;
  const api::MediaUrls* media_;
  IntakeForms forms_;
  PageAnchors anchors_;
  KeptSummaries summaries_;
};

// A list's `status` (completed by default) and `ordering` (-submitted_at by default) as the API
// names them; VALIDATION_ERROR or INVALID_ORDERING for any other.
StatusFilter statusFilter(const std::string& status);
Ordering ordering(const std::string& name);

// A respondent's email as given (nullopt when not `given`); VALIDATION_ERROR unless it is an
// email address.
std::optional<std::string> respondentEmail(bool given, const std::string& email);
// 404: no such response (also one of another workspace or link, or without the right token).
[[noreturn]] void noSuchResponse();
// Sets the response's answers, as objects and as the text that is stored and shown.
void setAnswers(StoredResponse& stored, std::vector<v1::Answer> answers);
// The question a call on one answer of a response names; 404 when the response's uuid is
// malformed or the link has no such question.
const questions::Question* answeredQuestion(const IntakeForm& form,
                                            const std::string& response_uuid,
                                            const std::string& field_key);
// A call on a started response: the token matches (compared in constant time), the
// response belongs to this link and is still open, and the link takes responses.
void requireOpen(const StoredResponse& stored, const std::string& token, const IntakeForm& form);

// The response token handed to a respondent: 32 base62 characters (190 bits).
std::string newResponseToken();

}  // namespace feedback::responses
