#include "common/pagination.h"

#include "common/errors.h"

namespace feedback {

Page normalizePage(const feedback::common::v1::PageRequest& request) {
  if (request.page() < 0 || request.page_size() < 0) {
    throw ApiError(ErrorCode::kInvalidPagination);
  }
  Page page;
  if (request.page() > 0) page.number = request.page();
  if (request.page_size() > 0) page.size = std::min(request.page_size(), kMaxPageSize);
  return page;
}

void requirePageExists(const Page& page, int64_t count) {
  if (page.number > 1 && page.offset() >= count) {
    throw ApiError(ErrorCode::kInvalidPage,
                   "Page " + std::to_string(page.number) + " is past the last page.");
  }
}

}  // namespace feedback
