#pragma once
// The rules of erasing respondents' data (docs/api.md "Erasure and retention"): deleting one
// response, erasing every response of one respondent, and erasing what a workspace's retention
// no longer keeps. Every erasure goes through eraseBatch: the batch's links are begun in Redis
// before it commits and settled after (LinkCounts), so that counts and kept pages on every
// gateway follow before the caller is answered; each erased response gets an audit line.
// Knows nothing of gRPC or SQL.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/counters.h"
#include "feedback/responses/v1/erasure.pb.h"
#include "services/responses/erasure/erasure_store.h"
#include "services/responses/responses_store.h"

namespace feedback::responses {

// Responses erased in one transaction: small enough that no write waits long for the locks
// it holds, large enough that an erasure of 100,000 is done in a few hundred round trips.
inline constexpr int kErasureBatch = 500;

// Why a response was erased: the label of responses_erased_total.
enum class ErasureReason { kDeleted, kRespondent, kRetention };
std::string_view reasonName(ErasureReason reason);

class ResponseErasure {
 public:
  ResponseErasure(LinkCounts& counts, Counters& counters, int batch = kErasureBatch);

  // 404 when the workspace has no such response under that link.
  v1::DeleteResponseResponse deleteResponse(ErasureStore& store,
                                            const v1::DeleteResponseRequest& request);
  // VALIDATION_ERROR unless respondent_email is an email address; then every response of the
  // workspace with it, a batch at a time (a log line each), until none is left.
  v1::EraseRespondentResponse eraseRespondent(ErasureStore& store,
                                              const v1::EraseRespondentRequest& request);
  // The workspace's responses whose time is more than its retention's days before `now_micros`,
  // a batch at a time while `go_on()`; skips those another replica is erasing. Answers how
  // many it erased.
  int64_t eraseExpired(ErasureStore& store, const Retention& retention, int64_t now_micros,
                       const std::function<bool()>& go_on);

 private:
  // One batch of the selection, `by` (a key's prefix, or "retention") named in its audit lines.
  std::vector<ErasedResponse> eraseBatch(ErasureStore& store, const ErasureSelection& selection,
                                         int limit, std::string_view by, ErasureReason reason);
  // Batches until the selection names no more (or `go_on` says stop); `by` and `reason` as
  // above.
  int64_t eraseAll(ErasureStore& store, const ErasureSelection& selection, std::string_view by,
                   ErasureReason reason, const std::function<bool()>& go_on = {});

  LinkCounts& counts_;
  Counters& counters_;
  const int batch_;
};

// What an audit line names as the eraser: the API key's prefix (its uuid when the caller
// record has none).
std::string eraserOf(const common::v1::Caller& caller);

}  // namespace feedback::responses
