#pragma once
// In-memory stand-ins for what the responses rules use: the store and the count publisher,
// and questions as the links service sends them. Shared by the unit tests (responses_fixture.h)
// and the fuzz targets (tests/fuzz/).

#include <algorithm>
#include <boost/json/parse.hpp>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include "common/api/response_json.h"
#include "common/core/crypto.h"
#include "common/core/errors.h"
#include "common/core/time.h"
#include "services/responses/evaluation/local_evaluator.h"
#include "services/responses/responses_service.h"
#include "services/responses/stored_answers.h"
#include "services/responses/summary_facts.h"

namespace responses_test {

namespace responses = feedback::responses;
namespace v1 = feedback::responses::v1;
namespace lv1 = feedback::links::v1;
using feedback::ApiError;
using feedback::ErrorCode;

inline constexpr const char* kWorkspace = "6f1c1d4e-0a5b-4c1e-9d7a-1b2c3d4e5f60";
inline constexpr const char* kLink = "0e0e0e0e-1111-4222-8333-444455556666";

// Responses in memory. An update works on a copy that is kept only when `apply` returns, as a
// transaction would.
class FakeStore final : public responses::ResponsesStore {
 public:
  std::map<std::string, responses::StoredResponse> rows;
  std::vector<responses::OutboxEvent> outbox;
  std::map<std::string, int64_t> completed;  // by link
  std::vector<responses::Ordering> orderings_asked;
  int64_t version = 0;     // of every list: moves with every write
  int seeks = 0;           // pages read after an anchor
  int64_t last_skip = -1;  // of the last page read after an anchor
  // Runs as a page's rows are read (after its count): a write in between, say.
  std::function<void()> while_reading_page;

  void insertResponses(const std::vector<const responses::NewResponse*>& batch) override {
    for (const auto* n : batch) {
      const auto& r = n->stored;
      rows[r.response.uuid()] = r;
      ++version;
      outbox.push_back(n->event);
      if (r.response.status() == "completed") ++completed[r.response.link_uuid()];
    }
  }
  bool updateResponse(
      const std::string& ws, const std::string& uuid,
      const std::function<std::optional<Change>(responses::StoredResponse&)>& apply) override {
    auto it = rows.find(uuid);
    if (it == rows.end() || it->second.workspace_uuid != ws) return false;
    responses::StoredResponse copy = it->second;
    copy.insight_jobs.clear();  // what a write queues: the row keeps the last write's
    auto change = apply(copy);
    if (!change) return true;
    it->second = copy;
    ++version;
    outbox.insert(outbox.end(), change->events.begin(), change->events.end());
    if (change->completes) ++completed[copy.response.link_uuid()];
    return true;
  }
  // The facts as PostgreSQL keeps them: in their short form when the response was written
  // with its link's layout.
  void forEachSummaryFacts(const std::string& ws, const std::string& link,
                           std::optional<int64_t> since, std::optional<int64_t> until,
                           const std::function<void(const FactsLayouts&)>& layouts,
                           const std::function<void(const FactsBatch&)>& each) override {
    ++summaries_read;
    std::vector<std::string> facts;
    std::map<std::string, std::string> kept;
    for (const auto& [uuid, r] : rows) {
      const auto& resp = r.response;
      const int64_t at = resp.submitted_at_micros();
      if (r.workspace_uuid != ws || resp.link_uuid() != link || at == 0) continue;
      if ((since && at < *since) || (until && at > *until)) continue;
      facts.push_back(responses::summaryFacts(responses::parseAnswers(resp.answers_json()),
                                              r.facts_layout.get()));
      if (r.facts_layout) kept[r.facts_layout->id()] = r.facts_layout->uuids();
    }
    layouts(FactsLayouts(kept.begin(), kept.end()));
    each(FactsBatch(facts.begin(), facts.end()));
  }
  int64_t startedCount(const std::string& ws, const std::string& link, std::optional<int64_t> since,
                       std::optional<int64_t> until) override {
    int64_t n = 0;
    for (const auto& [uuid, r] : rows) {
      const auto& resp = r.response;
      const int64_t at =
          resp.submitted_at_micros() ? resp.submitted_at_micros() : resp.started_at_micros();
      if (r.workspace_uuid != ws || resp.link_uuid() != link) continue;
      if ((since && at < *since) || (until && at > *until)) continue;
      ++n;
    }
    return n;
  }
  std::optional<responses::StoredResponse> findResponse(const std::string& ws,
                                                        const std::string& uuid) override {
    auto it = rows.find(uuid);
    if (it == rows.end() || it->second.workspace_uuid != ws) return std::nullopt;
    return it->second;
  }
  std::vector<v1::Response> matching(const responses::ResponseFilter& f) {
    std::vector<v1::Response> out;
    for (const auto& [_, r] : rows) {
      if (r.workspace_uuid != f.workspace_uuid) continue;
      if (!f.link_uuid.empty() && r.response.link_uuid() != f.link_uuid) continue;
      bool done = r.response.status() == "completed";
      if (f.status == responses::StatusFilter::kCompleted && !done) continue;
      if (f.status == responses::StatusFilter::kInProgress && done) continue;
      out.push_back(r.response);
    }
    return out;
  }
  Count countResponses(const responses::ResponseFilter& f) override {
    return {static_cast<int64_t>(matching(f).size()), version};
  }
  // Sorted by sort_at (the submission's time, else the start's), then uuid.
  static responses::Anchor keyOf(const v1::Response& r) {
    return {r.submitted_at_micros() ? r.submitted_at_micros() : r.started_at_micros(), r.uuid()};
  }
  std::vector<v1::Response> sorted(const responses::ResponseFilter& f, responses::Ordering o) {
    auto all = matching(f);
    bool ascending = o == responses::Ordering::kSubmittedAsc;
    std::sort(all.begin(), all.end(), [ascending](const v1::Response& a, const v1::Response& b) {
      auto ka = keyOf(a), kb = keyOf(b);
      auto pa = std::tie(ka.sort_micros, ka.uuid), pb = std::tie(kb.sort_micros, kb.uuid);
      return ascending ? pa < pb : pb < pa;
    });
    return all;
  }
  static std::vector<v1::Response> slice(const std::vector<v1::Response>& all, int64_t offset,
                                         int limit) {
    std::vector<v1::Response> page;
    for (int64_t i = offset; i < static_cast<int64_t>(all.size()) && i < offset + limit; ++i) {
      page.push_back(all[static_cast<std::size_t>(i)]);
    }
    return page;
  }
  Rows listResponses(const responses::ResponseFilter& f, responses::Ordering o, int64_t offset,
                     int limit) override {
    if (while_reading_page) while_reading_page();
    orderings_asked.push_back(o);
    return {slice(sorted(f, o), offset, limit), version};
  }
  Rows listAfter(const responses::ResponseFilter& f, responses::Ordering o,
                 const responses::Anchor& anchor, int64_t skip, int limit) override {
    if (while_reading_page) while_reading_page();
    ++seeks;
    last_skip = skip;
    orderings_asked.push_back(o);
    auto all = sorted(f, o);
    const bool ascending = o == responses::Ordering::kSubmittedAsc;
    const auto first = std::find_if(all.begin(), all.end(), [&](const v1::Response& r) {
      const auto k = keyOf(r);
      const auto key = std::tie(k.sort_micros, k.uuid);
      const auto from = std::tie(anchor.sort_micros, anchor.uuid);
      return ascending ? from < key : key < from;
    });
    return {slice(all, (first - all.begin()) + skip, limit), version};
  }
  DayCounts completedPerDay(const std::string& ws, const std::string& link,
                            std::optional<int64_t> since, std::optional<int64_t> until) override {
    std::map<std::string, int64_t> days;
    for (const auto& [uuid, r] : rows) {
      const int64_t at = r.response.submitted_at_micros();
      if (r.workspace_uuid != ws || r.response.link_uuid() != link || at == 0) continue;
      if ((since && at < *since) || (until && at > *until)) continue;
      ++days[feedback::formatTimestamp(at).substr(0, 10)];
    }
    return DayCounts(days.begin(), days.end());
  }
  void forEachResponse(const responses::ResponseFilter& f, responses::Ordering o, int batch,
                       const std::function<bool(ResponseBatch&)>& each) override {
    const auto all = sorted(f, o);
    for (std::size_t at = 0; at < all.size(); at += static_cast<std::size_t>(batch)) {
      ResponseBatch rows = slice(all, static_cast<int64_t>(at), batch);
      ++export_batches;
      if (!each(rows)) return;
    }
  }
  int export_batches = 0;
  int summaries_read = 0;
  CountedPage listCounted(const responses::ResponseFilter& f, responses::Ordering o, int64_t offset,
                          int limit) override {
    ++counted_pages;
    return {static_cast<int64_t>(matching(f).size()), version,
            listResponses(f, o, offset, limit).responses};
  }
  int counted_pages = 0;
  std::map<std::string, int64_t> completedCounts(const std::string&,
                                                 const std::vector<std::string>& links) override {
    std::map<std::string, int64_t> out;
    for (const auto& l : links) {
      if (completed.count(l)) out[l] = completed[l];
    }
    return out;
  }
};

// Records the count protocol: begun, then settled with a count (committed) or without.
class FakeCounts final : public responses::LinkCounts {
 public:
  bool unavailable = false;
  std::vector<std::string> begun;                          // every submission's name
  std::multiset<std::string> pending;                      // begun and not settled
  std::vector<std::pair<std::string, int64_t>> published;  // settled with a count
  int released = 0;                                        // settled without one
  int settled_unbegun = 0;
  void begin(const std::string&, const std::vector<std::string>& ids) override {
    if (unavailable) throw ApiError(ErrorCode::kServiceUnavailable);
    begun.insert(begun.end(), ids.begin(), ids.end());
    pending.insert(ids.begin(), ids.end());
  }
  void settle(const std::string& link, std::optional<responses::CountRead> count,
              const std::vector<std::string>& ids) override {
    if (count) {
      published.emplace_back(link, count->completed);
    } else {
      released += static_cast<int>(ids.size());
    }
    for (const auto& id : ids) {
      auto it = pending.find(id);
      if (it == pending.end()) {
        ++settled_unbegun;
      } else {
        pending.erase(it);
      }
    }
  }
  // Erasures settled: (link, how many).
  std::vector<std::pair<std::string, int>> removals;
  void settleRemoval(const std::string& link, const std::vector<std::string>& ids) override {
    removals.emplace_back(link, static_cast<int>(ids.size()));
    for (const auto& id : ids) {
      auto it = pending.find(id);
      if (it == pending.end()) {
        ++settled_unbegun;
      } else {
        pending.erase(it);
      }
    }
  }
  int open() const { return static_cast<int>(pending.size()) + settled_unbegun; }
};

inline lv1::Question question(const char* key, const char* type, const char* configuration = "{}",
                              const char* condition = "{}", bool required = false) {
  lv1::Question q;
  q.set_uuid(std::string("00000000-0000-4000-8000-") + std::string(12 - std::strlen(key), '0') +
             key);
  q.set_field_key(key);
  q.set_prompt(std::string("Prompt of ") + key);
  q.set_response_type(type);
  q.set_configuration_json(configuration);
  q.set_condition_json(condition);
  q.set_required(required);
  q.set_fallback_to_text(true);
  return q;
}

}  // namespace responses_test
