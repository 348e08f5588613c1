#include "services/responses/erasure/response_erasure.h"

#include <algorithm>
#include <map>

#include "common/core/errors.h"
#include "common/core/ids.h"
#include "common/core/log.h"
#include "common/redis/response_counts.h"
#include "services/responses/responses_service.h"

namespace feedback::responses {
namespace {

constexpr int64_t kDayMicros = 86400LL * 1000000;

// The erasures' ids in Redis, by link.
std::map<std::string, std::vector<std::string>> removalsByLink(
    const std::vector<ErasedResponse>& erased) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& e : erased) out[e.link_uuid].push_back(responsecount::removalId(e.uuid));
  return out;
}

}  // namespace

std::string_view reasonName(ErasureReason reason) {
  switch (reason) {
    case ErasureReason::kDeleted:
      return "deleted";
    case ErasureReason::kRespondent:
      return "respondent";
    case ErasureReason::kRetention:
      return "retention";
  }
  return "deleted";
}

std::string eraserOf(const common::v1::Caller& caller) {
  if (!caller.token_prefix().empty()) return caller.token_prefix();
  return "key " + caller.token_uuid();
}

ResponseErasure::ResponseErasure(LinkCounts& counts, Counters& counters, int batch)
    : counts_(counts), counters_(counters), batch_(std::max(1, batch)) {
  for (auto reason :
       {ErasureReason::kDeleted, ErasureReason::kRespondent, ErasureReason::kRetention}) {
    counters_.increment(
        "responses_erased_total{reason=\"" + std::string(reasonName(reason)) + "\"}", 0);
  }
}

std::vector<ErasedResponse> ResponseErasure::eraseBatch(ErasureStore& store,
                                                        const ErasureSelection& selection,
                                                        int limit, std::string_view by,
                                                        ErasureReason reason) {
  // Begun once the batch's rows are locked (their links known) and before it commits: from
  // then until it is settled, gateways read these links' counts from PostgreSQL.
  std::map<std::string, std::vector<std::string>> begun;
  std::vector<ErasedResponse> erased;
  try {
    erased = store.eraseBatch(selection, limit, [&](const std::vector<ErasedResponse>& locked) {
      for (auto& [link, removals] : removalsByLink(locked)) {
        counts_.begin(link, removals);
        auto& all = begun[link];  // a batch run again after a deadlock adds to it
        all.insert(all.end(), removals.begin(), removals.end());
      }
    });
  } catch (...) {
    // Whether it committed may be unknown (a connection lost during the commit): settled as
    // if it did, which only makes gateways count the links again.
    for (const auto& [link, removals] : begun) counts_.settleRemoval(link, removals);
    throw;
  }
  for (const auto& [link, removals] : begun) counts_.settleRemoval(link, removals);
  const std::string reason_name(reasonName(reason));
  for (const auto& e : erased) {
    // The audit trail: which response, whose, by whom, when (the line's time). Never the
    // email or an answer.
    log::info("response_erased", {{"response_uuid", e.uuid},
                                  {"workspace_uuid", selection.workspace_uuid},
                                  {"by", by},
                                  {"reason", reason_name}});
  }
  counters_.increment("responses_erased_total{reason=\"" + reason_name + "\"}", erased.size());
  return erased;
}

int64_t ResponseErasure::eraseAll(ErasureStore& store, const ErasureSelection& selection,
                                  std::string_view by, ErasureReason reason,
                                  const std::function<bool()>& go_on) {
  int64_t total = 0;
  while (!go_on || go_on()) {
    const auto erased = eraseBatch(store, selection, batch_, by, reason);
    if (erased.empty()) return total;
    total += static_cast<int64_t>(erased.size());
    log::info("erasure_progress", {{"workspace_uuid", selection.workspace_uuid},
                                   {"reason", reasonName(reason)},
                                   {"batch", static_cast<long long>(erased.size())},
                                   {"erased", static_cast<long long>(total)}});
    if (static_cast<int>(erased.size()) < batch_ && !selection.older_than_micros) {
      // A short batch took every row the selection named (none is skipped: rows locked by
      // another transaction are waited for); a row added since is the next call's.
      return total;
    }
  }
  return total;
}

v1::DeleteResponseResponse ResponseErasure::deleteResponse(
    ErasureStore& store, const v1::DeleteResponseRequest& request) {
  if (!isUuid(request.response_uuid()) || !isUuid(request.link_uuid())) noSuchResponse();
  ErasureSelection selection;
  selection.workspace_uuid = request.caller().workspace().uuid();
  selection.response_uuid = request.response_uuid();
  selection.link_uuid = request.link_uuid();
  if (eraseBatch(store, selection, 1, eraserOf(request.caller()), ErasureReason::kDeleted)
          .empty()) {
    noSuchResponse();
  }
  return {};
}

v1::EraseRespondentResponse ResponseErasure::eraseRespondent(
    ErasureStore& store, const v1::EraseRespondentRequest& request) {
  if (!request.has_respondent_email()) {
    throw ApiError(ErrorCode::kValidationError, "'respondent_email' is required.",
                   {{"respondent_email", "is required"}});
  }
  ErasureSelection selection;
  selection.workspace_uuid = request.caller().workspace().uuid();
  selection.email = respondentEmail(true, request.respondent_email());
  v1::EraseRespondentResponse out;
  out.set_erased(
      eraseAll(store, selection, eraserOf(request.caller()), ErasureReason::kRespondent));
  return out;
}

int64_t ResponseErasure::eraseExpired(ErasureStore& store, const Retention& retention,
                                      int64_t now_micros, const std::function<bool()>& go_on) {
  ErasureSelection selection;
  selection.workspace_uuid = retention.workspace_uuid;
  selection.older_than_micros = now_micros - int64_t{retention.days} * kDayMicros;
  return eraseAll(store, selection, "retention", ErasureReason::kRetention, go_on);
}

}  // namespace feedback::responses
