#pragma once
// Keyset pagination under the API's page and page_size: where the pages of a list sorted by
// submitted_at began and ended, so that the next page (or the one before) is read by seeking
// to the row after the last one shown (an index range from a key, however deep) instead of
// skipping every row before it (an OFFSET: 60 ms at the middle of a million responses, read
// from an index alone). A client that follows `next` reads each page at the cost of the first.
//
// Pages are exact: an anchor is used only while the list's version (ResponsesStore::Count,
// link_counts' changes) is the one it was read at, i.e. no response of the link (or workspace)
// was added, completed or removed since; any change forgets the list's anchors. The anchors
// are this process's (a replica that has none reads by offset) and bounded in number.

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "services/responses/responses_store.h"

namespace feedback::responses {

class PageAnchors {
 public:
  // At most this many rows are skipped after an anchor (an OFFSET from it); beyond that the
  // page is read by its offset in the list.
  static constexpr int64_t kMaxSkip = 1000;
  // About 150 bytes an anchor: at most 5 MB a process.
  static constexpr std::size_t kAnchorsPerList = 32;
  static constexpr std::size_t kLists = 1024;

  // How to read the page at `offset`: `reversed` false: the `skip` rows after `anchor`, then
  // the page, in the list's order; true: in the reverse order, from an anchor after the page,
  // so the rows read come last first.
  struct Seek {
    Anchor anchor;
    int64_t skip = 0;
    bool reversed = false;
  };

  // The identity of a list: everything that decides its rows and their order but the page
  // (nullopt: pages of it are not sought; search lists, orderings by email).
  static std::optional<std::string> listKey(const ResponseFilter& filter, Ordering ordering);

  // The nearest anchor to the page of `size` rows at `offset` of the list at `version`.
  std::optional<Seek> find(const std::string& list, int64_t version, int64_t offset, int size);
  // The page at `offset`, in the list's order, read at `version`: its first and last rows
  // become anchors.
  void record(const std::string& list, int64_t version, int64_t offset,
              const std::vector<feedback::responses::v1::Response>& page);

 private:
  struct Anchors {
    int64_t version = 0;
    std::map<int64_t, Anchor> by_offset;
    std::list<int64_t> added;  // offsets, oldest first
    std::list<std::string>::iterator recent;
  };
  void forgetOldestList();

  std::mutex mutex_;
  std::unordered_map<std::string, Anchors> lists_;
  std::list<std::string> recent_;  // list keys, most recently used first
};

// A response's key in lists sorted by submitted_at.
Anchor anchorOf(const feedback::responses::v1::Response& response);

}  // namespace feedback::responses
