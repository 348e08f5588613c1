#pragma once
// The rules of responses: starting, answering and submitting on behalf of a respondent (the
// public intake), and reading a workspace's responses. Knows nothing of gRPC or SQL: requests
// and answers are the protobuf messages, storage is a ResponsesStore.

#include "feedback/responses/v1/responses.pb.h"
#include "services/responses/intake_form.h"
#include "services/responses/response_writer.h"
#include "services/responses/responses_store.h"

namespace feedback::responses {

namespace v1 = feedback::responses::v1;

// A new response that the rules accepted, and the answer to give once it is stored: the
// caller hands `write` to a ResponseWriter and answers only when the writer reports success.
template <class Answer>
struct Accepted {
  NewResponse write;
  Answer answer;
};

class ResponsesService {
 public:
  // A submission of a started response is counted with `counts`.
  explicit ResponsesService(LinkCounts& counts) : counts_(counts) {}

  Accepted<v1::StartResponseResponse> startResponse(const v1::StartResponseRequest& request);
  v1::SaveAnswerResponse saveAnswer(ResponsesStore& store, const v1::SaveAnswerRequest& request);
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

 private:
  LinkCounts& counts_;
  IntakeForms forms_;
};

// The response token handed to a respondent: 32 base62 characters (190 bits).
std::string newResponseToken();

}  // namespace feedback::responses
