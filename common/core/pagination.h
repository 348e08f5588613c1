#pragma once
// Page arithmetic shared by every list endpoint (docs/api.md "Pagination and lists").

#include <cstdint>

namespace feedback {

inline constexpr int kDefaultPageSize = 20;
inline constexpr int kMaxPageSize = 100;

struct Page {
  int number = 1;
  int size = kDefaultPageSize;
  int64_t offset() const { return static_cast<int64_t>(number - 1) * size; }
};

// Applies defaults and the page_size cap; throws ApiError(kInvalidPagination) on negatives.
Page normalizePage(int page, int page_size);
// Any request with page() and page_size(), e.g. feedback.common.v1.PageRequest.
template <class PageRequest>
Page normalizePage(const PageRequest& request) {
  return normalizePage(request.page(), request.page_size());
}
// Throws ApiError(kInvalidPage) when `page` lies past the last page of `count` items
// (page 1 of an empty list exists).
void requirePageExists(const Page& page, int64_t count);

}  // namespace feedback
