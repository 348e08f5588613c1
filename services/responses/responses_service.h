#pragma once
// The rules of responses: starting, answering and submitting on behalf of a respondent (the
// public intake), and reading a workspace's responses. Knows nothing of gRPC or SQL: requests
// and answers are the protobuf messages, storage is a ResponsesStore.

#include "feedback/responses/v1/responses.pb.h"
#include "services/responses/response_writer.h"
#include "services/responses/responses_store.h"

namespace feedback::responses {

namespace v1 = feedback::responses::v1;

class ResponsesService {
 public:
  // New responses go through `writer`; a submission of a started response is counted with
  // `counts`.
  ResponsesService(ResponseWriter& writer, LinkCounts& counts) : writer_(writer), counts_(counts) {}

  v1::StartResponseResponse startResponse(ResponsesStore& store,
                                          const v1::StartResponseRequest& request);
  v1::SaveAnswerResponse saveAnswer(ResponsesStore& store, const v1::SaveAnswerRequest& request);
  v1::SubmitResponseResponse submitResponse(ResponsesStore& store,
                                            const v1::SubmitResponseRequest& request);
  v1::CreateCompletedResponseResponse createCompletedResponse(
      ResponsesStore& store, const v1::CreateCompletedResponseRequest& request);
  v1::ListResponsesResponse listResponses(ResponsesStore& store,
                                          const v1::ListResponsesRequest& request);
  v1::GetResponseResponse getResponse(ResponsesStore& store, const v1::GetResponseRequest& request);
  v1::CountResponsesResponse countResponses(ResponsesStore& store,
                                            const v1::CountResponsesRequest& request);

 private:
  ResponseWriter& writer_;
  LinkCounts& counts_;
};

// The response token handed to a respondent: 32 base62 characters (190 bits).
std::string newResponseToken();

}  // namespace feedback::responses
