#pragma once
// The list and count statements of PgResponsesStore, assembled from the shape of a request
// (one link or the workspace, status, time bounds, search, ordering). Each shape without a
// search is prepared once per connection and planned once (a generic plan: planning every
// page costs more than reading it); a search is planned for its own pattern every time, sent
// with its values in the text, because only then can the planner tell a rare word (the
// trigram index) from a common one or one too short for trigrams (the link's index).

#include <optional>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "services/responses/responses_store.h"

namespace feedback::responses {

enum class QueryKind {
  kCount,    // the number of matches
  kPage,     // one page of matches
  kCounted,  // one page with the number of all matches, in one statement
};

struct QueryShape {
  QueryKind kind = QueryKind::kCount;
  bool link = false;        // one link, or the whole workspace
  bool one_status = false;  // completed or in_progress, or both
  bool bounded = false;     // since or until given
  bool search = false;
  Ordering order = Ordering::kSubmittedDesc;  // of pages
};

QueryShape shapeOf(const ResponseFilter& filter, QueryKind kind,
                   Ordering order = Ordering::kSubmittedDesc);

// Page rows: the RESPONSE_COLUMNS (response_columns.h), then sort_at; counted pages add the
// count (the same in every row). A counted page past the end is one row of nulls but the
// count.
constexpr int kCountColumn = 11;

pqxx::result runQuery(pqxx::transaction_base& tx, const QueryShape& shape,
                      const ResponseFilter& filter, int64_t offset = 0, int limit = 0);

// Declares every prepared shape on a new connection.
void prepareQueries(pqxx::connection& connection);

// The ILIKE pattern that finds `search` anywhere, its wildcards taken literally.
std::string containsPattern(std::string_view search);

}  // namespace feedback::responses
