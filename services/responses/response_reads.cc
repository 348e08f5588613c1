// The reads of the API: lists, details, counts and summaries of a workspace's responses.
#include <algorithm>
#include <boost/json/parse.hpp>
#include <future>
#include <map>

#include "common/api/response_json.h"
#include "common/core/email_mask.h"
#include "common/core/errors.h"
#include "common/core/ids.h"
#include "common/core/json_writer.h"
#include "common/core/pagination.h"
#include "common/core/text.h"
#include "services/responses/intake_form.h"
#include "services/responses/link_summary.h"
#include "services/responses/responses_service.h"

namespace feedback::responses {

StatusFilter statusFilter(const std::string& status) {
  if (status.empty() || status == kCompleted) return StatusFilter::kCompleted;
  if (status == kInProgress) return StatusFilter::kInProgress;
  if (status == "all") return StatusFilter::kAll;
  throw ApiError(ErrorCode::kValidationError, "'status' must be completed, in_progress or all.",
                 {{"status", "must be completed, in_progress or all"}});
}

Ordering ordering(const std::string& name) {
  if (name.empty() || name == "-submitted_at") return Ordering::kSubmittedDesc;
  if (name == "submitted_at") return Ordering::kSubmittedAsc;
  if (name == "respondent_email") return Ordering::kEmailAsc;
  if (name == "-respondent_email") return Ordering::kEmailDesc;
  throw ApiError(ErrorCode::kInvalidOrdering,
                 "'ordering' must be one of submitted_at, -submitted_at, respondent_email, "
                 "-respondent_email.",
                 {{"ordering", "unknown ordering '" + name + "'"}});
}

namespace {

Ordering reversed(Ordering o) {
  switch (o) {
    case Ordering::kSubmittedAsc:
      return Ordering::kSubmittedDesc;
    case Ordering::kSubmittedDesc:
      return Ordering::kSubmittedAsc;
    case Ordering::kEmailAsc:
      return Ordering::kEmailDesc;
    case Ordering::kEmailDesc:
      return Ordering::kEmailAsc;
  }
  return o;
}

void requireUuid(const std::string& text, const char* name) {
  if (!isUuid(text)) {
    throw ApiError(ErrorCode::kValidationError, std::string("'") + name + "' must be a UUID.",
                   {{name, "must be a UUID"}});
  }
}

}  // namespace

namespace {

// A page of responses as the request asked for it: rendered as the API shows it (what
// gateways take), or as messages (older gateways, during a rollout).
v1::ListResponsesResponse pageAnswer(const v1::ListResponsesRequest& request, int64_t count,
                                     std::vector<v1::Response> rows) {
  v1::ListResponsesResponse response;
  response.set_count(count);
  if (!request.as_json()) {
    for (auto& r : rows) *response.add_responses() = std::move(r);
    return response;
  }
  std::size_t size = 2;
  for (const auto& r : rows) size += 512 + r.answers_json().size();
  std::string& results = *response.mutable_results_json();
  results.reserve(size);
  JsonWriter json(results);
  json.beginArray();
  for (const auto& r : rows) api::writeResponse(json, r);
  json.endArray();
  return response;
}

}  // namespace

v1::ListResponsesResponse ResponsesService::listResponses(ResponsesStore& store,
                                                          const v1::ListResponsesRequest& request) {
  const Page page = normalizePage(request.page());
  ResponseFilter filter;
  filter.workspace_uuid = request.caller().workspace().uuid();
  if (!request.link_uuid().empty()) requireUuid(request.link_uuid(), "link_uuid");
  filter.link_uuid = request.link_uuid();
  filter.status = statusFilter(request.status());
  requireStorableText(request.search(), "search");
  filter.search = request.search();
  if (request.has_since_micros()) filter.since_micros = request.since_micros();
  if (request.has_until_micros()) filter.until_micros = request.until_micros();
  const Ordering order = ordering(request.ordering());

  // The first page, and any page of a search (whose count visits every match anyway), come
  // with their count from one statement.
  const auto list = PageAnchors::listKey(filter, order);
  if (!filter.search.empty() || page.offset() == 0) {
    auto counted = store.listCounted(filter, order, page.offset(), page.size);
    requirePageExists(page, counted.count);
    if (list) anchors_.record(*list, counted.version, page.offset(), counted.responses);
    return pageAnswer(request, counted.count, std::move(counted.responses));
  }
  const auto count = store.countResponses(filter);
  requirePageExists(page, count.count);
  const int64_t offset = page.offset();
  if (offset >= count.count) return pageAnswer(request, count.count, {});
  const int limit = static_cast<int>(std::min<int64_t>(page.size, count.count - offset));
  auto rows = readPage(store, filter, order, offset, limit, count, list);
  // Anchors only from rows of the version counted: a change that came between the count and
  // the page moved the rows the anchors would name.
  if (list && rows.version == count.version) {
    anchors_.record(*list, count.version, offset, rows.responses);
  }
  return pageAnswer(request, count.count, std::move(rows.responses));
}

ResponsesStore::Rows ResponsesService::readPage(ResponsesStore& store, const ResponseFilter& filter,
                                                Ordering order, int64_t offset, int limit,
                                                const ResponsesStore::Count& count,
                                                const std::optional<std::string>& list) {
  // Rows read in the reverse order come last first.
  auto backwards = [](ResponsesStore::Rows rows) {
    std::reverse(rows.responses.begin(), rows.responses.end());
    return rows;
  };
  if (list) {
    if (auto seek = anchors_.find(*list, count.version, offset, limit)) {
      if (!seek->reversed) return store.listAfter(filter, order, seek->anchor, seek->skip, limit);
      return backwards(store.listAfter(filter, reversed(order), seek->anchor, seek->skip, limit));
    }
  }
  // Past the middle the page is read from the other end, so that the last page of a million
  // responses costs what the first does (an OFFSET walks every row it skips).
  if (offset > count.count / 2) {
    return backwards(
        store.listResponses(filter, reversed(order), count.count - offset - limit, limit));
  }
  return store.listResponses(filter, order, offset, limit);
}

v1::GetResponseResponse ResponsesService::getResponse(ResponsesStore& store,
                                                      const v1::GetResponseRequest& request) {
  if (!isUuid(request.response_uuid())) noSuchResponse();
  auto stored = store.findResponse(request.caller().workspace().uuid(), request.response_uuid());
  if (!stored ||
      (!request.link_uuid().empty() && stored->response.link_uuid() != request.link_uuid())) {
    noSuchResponse();
  }
  v1::GetResponseResponse response;
  *response.mutable_response() = std::move(stored->response);
  return response;
}

v1::CountResponsesResponse ResponsesService::countResponses(
    ResponsesStore& store, const v1::CountResponsesRequest& request) {
  std::vector<std::string> links(request.link_uuids().begin(), request.link_uuids().end());
  for (const auto& uuid : links) requireUuid(uuid, "link_uuids");
  auto counts = store.completedCounts(request.caller().workspace().uuid(), links);
  v1::CountResponsesResponse response;
  for (const auto& uuid : links) (*response.mutable_completed())[uuid] = counts[uuid];
  return response;
}

namespace {

// Batches of fewer facts are read by one thread: a second would cost more than it saves.
constexpr std::size_t kSummaryTwoThreadsFrom = 4096;

}  // namespace

namespace {

// The latest responses read for quotes: enough for a few per question in most links.
constexpr int kQuoteResponses = 50;
constexpr int kMaxQuotes = 10;

}  // namespace

// Texts of the latest completed responses, per question summed up as text (text, long_text,
// voice, voice_text_fallback): the value, else the transcription; emails masked.
void ResponsesService::addQuotes(ResponsesStore& store, const v1::GetLinkSummaryRequest& request,
                                 const std::vector<std::string>& text_questions,
                                 v1::GetLinkSummaryResponse& response) const {
  std::map<std::string, int, std::less<>> wanted;
  for (const auto& uuid : text_questions) wanted[uuid] = std::min(request.quotes(), kMaxQuotes);
  if (wanted.empty()) return;
  ResponseFilter filter;
  filter.workspace_uuid = request.caller().workspace().uuid();
  filter.link_uuid = request.link_uuid();
  const auto rows =
      store.listResponses(filter, Ordering::kSubmittedDesc, 0, kQuoteResponses).responses;
  for (const auto& r : rows) {
    boost::system::error_code ec;
    const auto answers = boost::json::parse(r.answers_json(), ec);
    if (ec || !answers.is_array()) continue;
    for (const auto& item : answers.get_array()) {
      if (!item.is_object()) continue;
      const auto& a = item.get_object();
      const auto* uuid = a.if_contains("question_uuid");
      if (!uuid || !uuid->is_string()) continue;
      auto left = wanted.find(std::string_view(uuid->get_string()));
      if (left == wanted.end() || left->second == 0) continue;
      const auto* value = a.if_contains("value");
      const auto* spoken = a.if_contains("transcription");
      const auto* text = value && value->is_string()     ? value
                         : spoken && spoken->is_string() ? spoken
                                                         : nullptr;
      if (!text || text->get_string().empty()) continue;
      auto* quote = response.add_quotes();
      quote->set_question_uuid(left->first);
      quote->set_text(maskEmails(text->get_string()));
      --left->second;
    }
  }
}

v1::GetLinkSummaryResponse ResponsesService::linkSummary(ResponsesStore& store,
                                                         const v1::GetLinkSummaryRequest& request) {
  requireUuid(request.link_uuid(), "link_uuid");
  const std::string& workspace = request.caller().workspace().uuid();
  std::optional<int64_t> since, until;
  if (request.has_since_micros()) since = request.since_micros();
  if (request.has_until_micros()) until = request.until_micros();
  // A kept summary is current while the link's questions (its version) and responses (the
  // started count and the lists' version, one read of link_counts) are as they were.
  std::string kept_key, validity;
  if (request.keep() && request.has_link() && !since && !until) {
    ResponseFilter filter;
    filter.workspace_uuid = workspace;
    filter.link_uuid = request.link_uuid();
    filter.status = StatusFilter::kAll;
    const auto count = store.countResponses(filter);
    kept_key = workspace + "/" + request.link_uuid() + "/" +
               std::to_string(request.link().version()) + (request.daily() ? "/daily" : "") + "/" +
               std::to_string(request.quotes());
    validity = std::to_string(count.count) + "/" + std::to_string(count.version);
    if (auto kept = summaries_.find(kept_key, validity)) return std::move(*kept);
  }
  auto questions = request.has_link() ? summarised(questionsOf(request.link()))
                                      : questionsOfDocument(request.link_json());
  std::vector<std::string> text_questions;
  for (const auto& q : questions) {
    if (questions::summaryKindOf(q.response_type) == questions::SummaryKind::kText) {
      text_questions.push_back(q.uuid);
    }
  }
  // Reading facts is the summary's cost: a large batch is read by two threads, each into a
  // summary of its own, and the two are added up at the end.
  LinkSummary summary(questions), other(std::move(questions));
  store.forEachSummaryFacts(
      workspace, request.link_uuid(), since, until,
      [&](const ResponsesStore::FactsLayouts& layouts) {
        for (const auto& [id, uuids] : layouts) {
          summary.addLayout(id, uuids);
          other.addLayout(id, uuids);
        }
      },
      [&](const ResponsesStore::FactsBatch& batch) {
        const std::size_t half =
            batch.size() < kSummaryTwoThreadsFrom ? batch.size() : batch.size() / 2;
        std::future<void> second;
        if (half < batch.size()) {
          second = std::async(std::launch::async, [&] {
            for (std::size_t i = half; i < batch.size(); ++i) other.add(batch[i]);
          });
        }
        for (std::size_t i = 0; i < half; ++i) summary.add(batch[i]);
        if (second.valid()) second.get();
      });
  summary.merge(other);
  // Read after the facts: a response completed in between is started, never the reverse.
  const int64_t started = std::max(store.startedCount(workspace, request.link_uuid(), since, until),
                                   summary.responses());
  v1::GetLinkSummaryResponse response;
  response.set_summary_json(summary.json(request.link_uuid(), started));
  if (request.daily()) {
    for (auto& [day, completed] :
         store.completedPerDay(workspace, request.link_uuid(), since, until)) {
      auto* d = response.add_daily();
      d->set_day(std::move(day));
      d->set_completed(completed);
    }
  }
  if (request.quotes() > 0) addQuotes(store, request, text_questions, response);
  if (!kept_key.empty()) summaries_.keep(kept_key, validity, response);
  return response;
}

}  // namespace feedback::responses
