#pragma once
// What the responses rules need from storage. PgResponsesStore implements it with SQL; unit
// tests use an in-memory fake.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "feedback/responses/v1/responses.pb.h"

namespace feedback::responses {

// A response's status as stored and shown.
inline constexpr std::string_view kInProgress = "in_progress";
inline constexpr std::string_view kCompleted = "completed";

// An answer whose insights a model server is to fill (AI_EVALUATOR=openai), queued with the
// write that saved it; insight_jobs.h runs it.
struct InsightJob {
  std::string answer_uuid;
  std::string question;            // the prompt the answer answers
  std::string custom_fields_json;  // the question's evaluator_config.custom_fields
  std::string text;                // what is judged (answer_evaluation.h, answerText)
};

class FactsLayout;  // summary_facts.h

// A response as stored: the record the API shows plus what only the service sees.
struct StoredResponse {
  // Its answers_json is the text of `answers`.
  feedback::responses::v1::Response response;
  // The answers, parsed: filled when the response is loaded to be changed.
  std::vector<feedback::responses::v1::Answer> answers;
  std::string workspace_uuid;
  // Lowercase hex SHA-256 of the response token; the token itself is never stored.
  std::string token_hash;
  // Insights to ask a model server for, queued in the transaction that writes this response.
  std::vector<InsightJob> insight_jobs;
  // The order of its link's questions, when known (a response being started or submitted):
  // its summary facts are then written in their short form (summary_facts.h).
  std::shared_ptr<const FactsLayout> facts_layout;
};

// A transactional-outbox row: an event fixed at write time, delivered by the webhooks
// dispatcher (docs/api.md "Events and webhooks").
struct OutboxEvent {
  std::string event_id;  // webhook-id: the same on every delivery attempt
  std::string type;      // response.started, response.submitted
  std::string payload;   // the JSON body
  // Set for a response completed in one call (makeCompletedEvents, events.h): the row, its
  // response.submitted event, stands also for its response.started, with this id.
  std::string started_event_id;
};

enum class StatusFilter { kCompleted, kInProgress, kAll };
enum class Ordering { kSubmittedAsc, kSubmittedDesc, kEmailAsc, kEmailDesc };

struct ResponseFilter {
  std::string workspace_uuid;
  std::string link_uuid;  // empty: the whole workspace
  StatusFilter status = StatusFilter::kCompleted;
  std::string search;  // empty: none
  std::optional<int64_t> since_micros;
  std::optional<int64_t> until_micros;
};

// A row of a list, by its place in a list sorted by submitted_at: its sort_at (the
// submission's time, else the start's) and uuid. A page may be read from the one before it
// (page_anchors.h).
struct Anchor {
  int64_t sort_micros = 0;
  std::string uuid;
};

// A response to store, with its event: response.started for a response in progress, both
// events in one row for one completed in one call.
struct NewResponse {
  StoredResponse stored;
  OutboxEvent event;
};

class ResponsesStore {
 public:
  virtual ~ResponsesStore() = default;

  // Stores new responses with their events and counts them, all or nothing.
  virtual void insertResponses(const std::vector<const NewResponse*>& responses) = 0;

  // What an update writes besides the changed response.
  struct Change {
    std::vector<OutboxEvent> events;
    bool completes = false;  // counted as completed
  };
  // Loads and locks the workspace's response, lets `apply` change it (nullopt: nothing to
  // save), then saves it with the change's events, all in one transaction; an exception from
  // `apply` undoes everything. False when there is no such response.
  virtual bool updateResponse(
      const std::string& workspace_uuid, const std::string& response_uuid,
      const std::function<std::optional<Change>(StoredResponse&)>& apply) = 0;

  virtual std::optional<StoredResponse> findResponse(const std::string& workspace_uuid,
                                                     const std::string& response_uuid) = 0;
  // How many responses match, and the version of the lists of the filter's link (or
  // workspace): a number that moves whenever a response of it is added, completed or removed,
  // and only then, so that pages read at one version can be continued at it.
  struct Count {
    int64_t count = 0;
    int64_t version = 0;
  };
  virtual Count countResponses(const ResponseFilter& filter) = 0;
  // A page's responses, and the version (Count) they were read at; 0 when there are none.
  struct Rows {
    std::vector<feedback::responses::v1::Response> responses;
    int64_t version = 0;
  };
  virtual Rows listResponses(const ResponseFilter& filter, Ordering ordering, int64_t offset,
                             int limit) = 0;
  // Up to `limit` responses that come after `anchor` in `ordering` (submitted_at orderings
  // only), the first `skip` of them left out.
  virtual Rows listAfter(const ResponseFilter& filter, Ordering ordering, const Anchor& anchor,
                         int64_t skip, int limit) = 0;
  // A page, how many responses match in all and their version (Count), in one statement
  // (the count is exact also when the page is past the end; a search's version is 0).
  struct CountedPage {
    int64_t count = 0;
    int64_t version = 0;
    std::vector<feedback::responses::v1::Response> responses;
  };
  virtual CountedPage listCounted(const ResponseFilter& filter, Ordering ordering, int64_t offset,
                                  int limit) = 0;
  // The summary facts (summary_facts.h) of the link's completed responses submitted within
  // the inclusive bounds, read in batches in one snapshot, each batch given to `each` (its
  // views valid during the call), which may run on another thread while the next batch is
  // read, though never beside itself; before them, `layouts` is given the link's facts
  // layouts, every one those facts name.
  using FactsBatch = std::vector<std::string_view>;
  using FactsLayouts = std::vector<std::pair<std::string, std::string>>;  // id, question uuids
  virtual void forEachSummaryFacts(const std::string& workspace_uuid, const std::string& link_uuid,
                                   std::optional<int64_t> since, std::optional<int64_t> until,
                                   const std::function<void(const FactsLayouts&)>& layouts,
                                   const std::function<void(const FactsBatch&)>& each) = 0;
  // The link's completed responses per day (UTC, "YYYY-MM-DD"), in order, within the
  // inclusive bounds on submitted_at.
  using DayCounts = std::vector<std::pair<std::string, int64_t>>;
  virtual DayCounts completedPerDay(const std::string& workspace_uuid, const std::string& link_uuid,
                                    std::optional<int64_t> since, std::optional<int64_t> until) = 0;
  // Every response `filter` matches, in `ordering`, read from one cursor (one snapshot) in
  // batches of at most `batch`, each handed to `each` (which may take its responses); stops
  // early when `each` returns false (an export whose client left).
  using ResponseBatch = std::vector<feedback::responses::v1::Response>;
  virtual void forEachResponse(const ResponseFilter& filter, Ordering ordering, int batch,
                               const std::function<bool(ResponseBatch&)>& each) = 0;
  // The link's responses, completed or not, whose time (the submission's, else the start's)
  // is within the inclusive bounds.
  virtual int64_t startedCount(const std::string& workspace_uuid, const std::string& link_uuid,
                               std::optional<int64_t> since, std::optional<int64_t> until) = 0;
  // Completed responses of each link of the workspace (links without any are absent).
  virtual std::map<std::string, int64_t> completedCounts(
      const std::string& workspace_uuid, const std::vector<std::string>& link_uuids) = 0;
};

// A link's completed responses read from PostgreSQL, and when the read started.
struct CountRead {
  int64_t completed = 0;
  int64_t started_ms = 0;  // since the epoch
};

// The links' completed counts as the gateways read them (common/redis/response_counts.h).
// Submissions are named by ids unique to each attempt at committing one.
class LinkCounts {
 public:
  virtual ~LinkCounts() = default;
  // Before the submissions commit: the link's count is about to change. Throws
  // ApiError(kServiceUnavailable) when that cannot be recorded; nothing may be committed then.
  virtual void begin(const std::string& link_uuid, const std::vector<std::string>& submissions) = 0;
  // After they committed, with a count read after the commit; or with nullopt when they did
  // not commit. Never throws: what fails is retried in the background; settling twice is
  // harmless.
  virtual void settle(const std::string& link_uuid, std::optional<CountRead> count,
                      const std::vector<std::string>& submissions) = 0;
  // Erasures of the link's responses are begun like submissions, with ids made by
  // responsecount::removalId(), and settled after their transaction, whether it committed or
  // not (its outcome may be unknown: a connection lost during the commit): the link's count is
  // dropped, so that gateways count it again, and pages kept of its responses are never served
  // again. Never throws, as settle().
  virtual void settleRemoval(const std::string& link_uuid,
                             const std::vector<std::string>& removals) = 0;
};

}  // namespace feedback::responses
