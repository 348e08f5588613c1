#include "services/responses/page_anchors.h"

#include "services/responses/response_queries.h"

namespace feedback::responses {

namespace rv1 = feedback::responses::v1;

Anchor anchorOf(const rv1::Response& response) {
  return {response.submitted_at_micros() != 0 ? response.submitted_at_micros()
                                              : response.started_at_micros(),
          response.uuid()};
}

std::optional<std::string> PageAnchors::listKey(const ResponseFilter& filter, Ordering ordering) {
  if (!filter.search.empty() || !seeks(ordering)) return std::nullopt;
  auto bound = [](const std::optional<int64_t>& micros) {
    return micros ? std::to_string(*micros) : std::string("-");
  };
  return filter.workspace_uuid + '|' + filter.link_uuid + '|' +
         std::to_string(static_cast<int>(filter.status)) + '|' + bound(filter.since_micros) + '|' +
         bound(filter.until_micros) + '|' + std::to_string(static_cast<int>(ordering));
}

std::optional<PageAnchors::Seek> PageAnchors::find(const std::string& list, int64_t version,
                                                   int64_t offset, int size) {
  std::lock_guard lock(mutex_);
  auto it = lists_.find(list);
  if (it == lists_.end()) return std::nullopt;
  Anchors& anchors = it->second;
  if (anchors.version != version) {
    recent_.erase(anchors.recent);
    lists_.erase(it);
    return std::nullopt;
  }
  recent_.splice(recent_.begin(), recent_, anchors.recent);
  std::optional<Seek> best;
  // Reading on from the anchor before the page, or back from the one after it: whichever
  // skips fewer rows.
  auto after = anchors.by_offset.lower_bound(offset);
  if (after != anchors.by_offset.begin()) {
    auto before = std::prev(after);
    const int64_t skip = offset - before->first - 1;
    if (skip <= kMaxSkip) best = Seek{before->second, skip, false};
  }
  auto past = anchors.by_offset.lower_bound(offset + size);
  if (past != anchors.by_offset.end()) {
    const int64_t skip = past->first - (offset + size);
    if (skip <= kMaxSkip && (!best || skip < best->skip)) best = Seek{past->second, skip, true};
  }
  return best;
}

void PageAnchors::record(const std::string& list, int64_t version, int64_t offset,
                         const std::vector<rv1::Response>& page) {
  if (page.empty()) return;
  std::lock_guard lock(mutex_);
  auto [it, added] = lists_.try_emplace(list);
  Anchors& anchors = it->second;
  if (added) {
    recent_.push_front(list);
    anchors.version = version;
  } else {
    recent_.splice(recent_.begin(), recent_, anchors.recent);
  }
  anchors.recent = recent_.begin();
  if (anchors.version != version) {
    anchors = Anchors{version, {}, {}, recent_.begin()};
  }
  for (int64_t at : {offset, offset + static_cast<int64_t>(page.size()) - 1}) {
    const auto& row = page[static_cast<std::size_t>(at - offset)];
    if (anchors.by_offset.insert_or_assign(at, anchorOf(row)).second) anchors.added.push_back(at);
  }
  while (anchors.added.size() > kAnchorsPerList) {
    anchors.by_offset.erase(anchors.added.front());
    anchors.added.pop_front();
  }
  if (lists_.size() > kLists) forgetOldestList();
}

void PageAnchors::forgetOldestList() {
  lists_.erase(recent_.back());
  recent_.pop_back();
}

}  // namespace feedback::responses
