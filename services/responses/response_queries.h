#pragma once
// The list and count statements of PgResponsesStore, assembled from the shape of a request
// (one link or the workspace, status, time bounds, search, ordering). Each shape without a
// search is prepared once per connection and planned once (a generic plan: planning every
// page costs more than reading it); a search is planned for its own pattern every time, sent
// with its values in the text, because only then can the planner tell a rare word (the
// search keys' index) from a common one (the link's index).

#include <optional>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "services/responses/responses_store.h"

namespace feedback::responses {

enum class QueryKind {
  kCount,    // the number of matches, and the version of the lists (countSql)
  kPage,     // one page of matches, at an offset
  kCounted,  // one page with the number of all matches and the version, in one statement
  kSeek,     // one page of the matches after an anchor, at an offset from it
  kExport,   // every match, in order (read through a cursor)
};

struct QueryShape {
  QueryKind kind = QueryKind::kCount;
  bool link = false;        // one link, or the whole workspace
  bool one_status = false;  // completed or in_progress, or both
  bool bounded = false;     // since or until given
  bool search = false;
  bool search_keys = false;                   // a search by the keys of its term (hasSearchKeys)
  Ordering order = Ordering::kSubmittedDesc;  // of pages
};

QueryShape shapeOf(const ResponseFilter& filter, QueryKind kind,
                   Ordering order = Ordering::kSubmittedDesc);

// Count rows: the count, then the version. Page rows: the RESPONSE_COLUMNS
// (response_columns.h), then sort_at; pages at an offset and sought pages add the version they
// were read at; counted pages the count and the version (the same in every row). A counted
// page past the end is one row of nulls but those.
constexpr int kPageVersionColumn = 11;
constexpr int kCountColumn = 11;
constexpr int kVersionColumn = 12;

// Whether pages in `order` can be sought from an anchor (kSeek): sorted by submitted_at, whose
// keys are never null.
inline bool seeks(Ordering order) {
  return order == Ordering::kSubmittedAsc || order == Ordering::kSubmittedDesc;
}

// `anchor`: for kSeek, the row after which the page is read.
pqxx::result runQuery(pqxx::transaction_base& tx, const QueryShape& shape,
                      const ResponseFilter& filter, int64_t offset = 0, int limit = 0,
                      const Anchor* anchor = nullptr);

// The statement of an export (QueryKind::kExport) of `filter`, its values in its text: a cursor
// is declared with it.
std::string exportSql(pqxx::transaction_base& tx, const ResponseFilter& filter, Ordering order);

// A search's statement as runQuery sends it: its values in its text, in place of its
// parameters (a search is not seeking: no anchor).
std::string searchSql(pqxx::transaction_base& tx, const QueryShape& shape,
                      const ResponseFilter& filter, int64_t offset, int limit);

// The statement of a shape, with its parameters numbered (a search's too, which runQuery
// sends with its values in the text).
std::string statementSql(const QueryShape& shape);

// Declares every prepared shape on a new connection.
void prepareQueries(pqxx::connection& connection);

// Whether rows may be searched for `search` by keys (responses migration 015): keys are
// trigrams, so a term of fewer than three characters has none and is looked for in every row
// of its link or workspace (as one whose words are too short is, by the statement itself).
bool hasSearchKeys(std::string_view search);

// The LIKE pattern that finds `search` anywhere, its wildcards taken literally.
std::string containsPattern(std::string_view search);

}  // namespace feedback::responses
