#include "services/responses/response_queries.h"

#include <cctype>

#include "common/questions/answer_rules.h"
#include "services/responses/response_columns.h"

namespace feedback::responses {
namespace {

// Time bounds when only one is given: the years 1 and 9999.
constexpr int64_t kEarliest = -62135596800000000;
constexpr int64_t kLatest = 253402300799999999;

// The number of each parameter a shape takes (0: not taken), in this order: workspace,
// [link], [status], [since, until], [pattern, [term]], [anchor's sort_at, anchor's uuid],
// [limit, offset].
struct Numbering {
  int workspace = 1, link = 0, status = 0, since = 0, until = 0, pattern = 0, term = 0,
      anchor_sort = 0, anchor_uuid = 0, limit = 0, offset = 0;
};

Numbering numberingOf(const QueryShape& s) {
  Numbering n;
  int next = 2;
  if (s.link) n.link = next++;
  if (s.one_status) n.status = next++;
  if (s.bounded) {
    n.since = next++;
    n.until = next++;
  }
  if (s.search) n.pattern = next++;
  if (s.search_keys) n.term = next++;
  if (s.kind == QueryKind::kSeek) {
    n.anchor_sort = next++;
    n.anchor_uuid = next++;
  }
  if (s.kind != QueryKind::kCount && s.kind != QueryKind::kExport) {
    n.limit = next++;
    n.offset = next++;
  }
  return n;
}

std::string param(int n) {
  return "$" + std::to_string(n);
}

std::string fromMicros(int n) {
  return FROM_MICROS_BEFORE + param(n) + FROM_MICROS_AFTER;
}

// That a row has the keys of the term in the link named by `link` (responses migration 015),
// unless the term has none: then the condition is true, and falls away when the statement is
// planned (the term is a constant by then, runQuery), so that the rows are read by another
// index rather than the keys' index whole.
std::string hasTermKeys(const Numbering& n, const std::string& link) {
  const std::string term = "lower(" + param(n.term) + ")";
  return "(search_keys @> responses.term_keys(responses.link_search_key(" + link + "), " + term +
         ") OR cardinality(responses.term_trigrams(" + term + ")) = 0)";
}

// Where a shape's rows come from: the responses, or, for a search of the workspace by keys,
// those of each of its links that have the term's keys in that link, since keys belong to a
// link. OFFSET 0 keeps each link's lookup apart: joined with the links, the planner would
// rather read every response of the workspace once than the index once per link.
std::string sourceOf(const QueryShape& s, const Numbering& n) {
  if (!s.search_keys || s.link) return " FROM responses.responses";
  return " FROM (SELECT DISTINCT link_uuid AS searched_link FROM responses.link_counts"
         " WHERE workspace_uuid = " +
         param(n.workspace) +
         ") AS searched_links CROSS JOIN LATERAL (SELECT * FROM responses.responses"
         " WHERE workspace_uuid = " +
         param(n.workspace) + " AND link_uuid = searched_link AND " +
         hasTermKeys(n, "searched_link") + " OFFSET 0) AS responses";
}

// `status`: the condition on it ("" for none).
std::string whereOf(const QueryShape& s, const Numbering& n, const std::string& status) {
  std::string sql = " WHERE workspace_uuid = " + param(n.workspace);
  if (s.link) sql += " AND link_uuid = " + param(n.link);
  // A workspace's keys are looked up in sourceOf.
  if (s.search_keys && s.link) sql += " AND " + hasTermKeys(n, param(n.link) + "::uuid");
  if (!status.empty()) sql += " AND status = " + status;
  if (s.bounded) {
    sql += " AND sort_at >= " + fromMicros(n.since);
    sql += " AND sort_at <= " + fromMicros(n.until);
  }
  // search_text is kept folded (responses migration 014): as ILIKE, in bytes.
  if (s.search) sql += " AND search_text LIKE lower(" + param(n.pattern) + ")";
  if (s.kind == QueryKind::kSeek) {
    // After the anchor in the list's order (submitted_at orderings only: their keys are
    // never null).
    sql += std::string(" AND (sort_at, uuid) ") + (s.order == Ordering::kSubmittedAsc ? ">" : "<") +
           " (" + fromMicros(n.anchor_sort) + ", " + param(n.anchor_uuid) + "::uuid)";
  }
  return sql;
}

std::string whereOf(const QueryShape& s, const Numbering& n) {
  return whereOf(s, n, s.one_status ? param(n.status) : std::string());
}

// `prefix`: the alias of the rows sorted, with its dot, or "".
std::string orderBy(Ordering o, const std::string& prefix) {
  const std::string sort = prefix + "sort_at", uuid = prefix + "uuid",
                    email = prefix + "respondent_email";
  switch (o) {
    case Ordering::kSubmittedAsc:
      return " ORDER BY " + sort + ", " + uuid;
    case Ordering::kSubmittedDesc:
      return " ORDER BY " + sort + " DESC, " + uuid + " DESC";
    case Ordering::kEmailAsc:
      return " ORDER BY " + email + ", " + sort + ", " + uuid;
    case Ordering::kEmailDesc:
      return " ORDER BY " + email + " DESC, " + sort + " DESC, " + uuid + " DESC";
  }
  return "";
}

bool byEmail(Ordering o) {
  return !seeks(o);
}

std::string limitOf(const Numbering& n) {
  return " LIMIT " + param(n.limit) + " OFFSET " + param(n.offset);
}

// The rows of `columns` that match, in the shape's order, from `limit` on (limitOf, or ""
// for all of them). A list of every status is the merge of the two statuses' ranges of an
// index, each in order (PostgreSQL 15 reads an index for `status IN (...)` one value after the
// other, unordered, so the page would follow a sort of every match); each range gives at most
// what the page needs.
std::string orderedRows(const QueryShape& s, const Numbering& n, const std::string& columns,
                        const std::string& limit) {
  const std::string select = "SELECT " + columns + sourceOf(s, n);
  if (s.one_status) return select + whereOf(s, n) + orderBy(s.order, "") + limit;
  std::string enough;
  if (!limit.empty())
    enough = " LIMIT " + param(n.limit) + "::bigint + " + param(n.offset) + "::bigint";
  auto range = [&](const char* status) {
    return "(" + select + whereOf(s, n, status) + orderBy(s.order, "") + enough + ")";
  };
  return "SELECT * FROM (" + range("'completed'") + " UNION ALL " + range("'in_progress'") +
         ") AS merged" + orderBy(s.order, "") + limit;
}

// The rows of link_counts of the link (or workspace).
std::string countsOf(const QueryShape& s, const Numbering& n) {
  std::string counts = " FROM responses.link_counts WHERE workspace_uuid = " + param(n.workspace);
  if (s.link) counts += " AND link_uuid = " + param(n.link);
  return counts;
}

// The version of the lists of the link (or workspace): the sum of its rows' changes in
// link_counts (responses migration 013), as a column.
constexpr const char* kVersion = "COALESCE(sum(changes), 0)::bigint";

std::string versionColumn(const QueryShape& s, const Numbering& n) {
  return std::string("(SELECT ") + kVersion + countsOf(s, n) + ")";
}

// The number of matches and the version. Without search or time bounds the count is the sum
// of the rows' counts (a handful of rows), not a pass over the responses.
std::string countSql(const QueryShape& s, const Numbering& n) {
  if (s.bounded || s.search) {
    const std::string versioned = ", " + versionColumn(s, n);
    if (s.one_status || s.search) {
      return "SELECT count(*)" + versioned + sourceOf(s, n) + whereOf(s, n);
    }
    // Each status's range of the index, rather than every response of the link or workspace.
    auto counted = [&](const char* status) {
      return "(SELECT count(*)" + sourceOf(s, n) + whereOf(s, n, status) + ")";
    };
    return "SELECT " + counted("'completed'") + " + " + counted("'in_progress'") + versioned;
  }
  const std::string counted = s.one_status
                                  ? "CASE WHEN " + param(n.status) +
                                        " = 'completed' THEN completed ELSE started - completed END"
                                  : std::string("started");
  return "SELECT COALESCE(sum(" + counted + "), 0)::bigint, " + kVersion + countsOf(s, n);
}

// A page at an offset: the keys of the rows it skips and of its own are read from an index
// alone (an index-only scan: no row of the table for a row skipped), then its own rows, each
// by its key. LATERAL, because a generic plan takes its LIMIT for a tenth of the rows and
// would rather hash-join every response (230 ms at a million where this takes 70).
std::string pageSql(const QueryShape& s, const Numbering& n) {
  const std::string keys = byEmail(s.order) ? "uuid, sort_at, respondent_email" : "uuid, sort_at";
  return "SELECT r.*, " + versionColumn(s, n) + " FROM (" + orderedRows(s, n, keys, limitOf(n)) +
         ") AS k CROSS JOIN LATERAL (SELECT " RESPONSE_COLUMNS_OF(
             "t.") ", t.sort_at FROM responses.responses AS t WHERE t.uuid = k.uuid) AS r" +
         orderBy(s.order, "k.");
}

// A page after an anchor, read as the first page is: what it skips is little (at most
// PageAnchors::kMaxSkip, usually nothing), and its rows come with their keys.
std::string seekSql(const QueryShape& s, const Numbering& n) {
  return "SELECT sought.*, " + versionColumn(s, n) + " FROM (" +
         orderedRows(s, n, RESPONSE_COLUMNS ", sort_at", limitOf(n)) + ") AS sought" +
         orderBy(s.order, "sought.");
}

// One row per response of the page, each with the count and the version; one row of nulls
// but those when the page is past the end.
std::string countedSql(const QueryShape& s, const Numbering& n) {
  const std::string tail = ") AS p ON true" + orderBy(s.order, "p.");
  if (!s.search) {
    return "SELECT p.*, total.n, total.v FROM (" + countSql(s, n) +
           ") AS total (n, v) LEFT JOIN LATERAL (" +
           orderedRows(s, n, RESPONSE_COLUMNS ", sort_at", limitOf(n)) + tail;
  }
  // A search visits every match to count them: the matches are gathered once, narrow (no
  // answers), and only the page's rows are read whole. Its pages are not continued from
  // their rows (page_anchors.h): version 0.
  return "WITH matches AS MATERIALIZED (SELECT uuid, sort_at, respondent_email" +
         sourceOf(s, n) + whereOf(s, n) +
         ") SELECT p.*, total.n, 0::bigint FROM (SELECT count(*) FROM matches) AS total (n) "
         "LEFT JOIN LATERAL (SELECT " RESPONSE_COLUMNS_OF("r.") ", r.sort_at FROM (SELECT uuid "
         "FROM matches" +
         orderBy(s.order, "") + limitOf(n) +
         ") AS m JOIN responses.responses AS r ON r.uuid = m.uuid" + tail;
}

}  // namespace

std::string statementSql(const QueryShape& s) {
  const Numbering n = numberingOf(s);
  switch (s.kind) {
    case QueryKind::kCount:
      return countSql(s, n);
    case QueryKind::kPage:
      return pageSql(s, n);
    case QueryKind::kSeek:
      return seekSql(s, n);
    case QueryKind::kCounted:
      return countedSql(s, n);
    case QueryKind::kExport:
      return orderedRows(s, n, RESPONSE_COLUMNS ", sort_at", "");
  }
  return "";
}

namespace {

std::string nameOf(const QueryShape& s) {
  static constexpr const char* kKinds[] = {"count", "page", "counted", "seek", "export"};
  std::string name = std::string("responses_") + kKinds[static_cast<int>(s.kind)];
  if (s.link) name += "_link";
  if (s.one_status) name += "_status";
  if (s.bounded) name += "_bounded";
  if (s.search) name += "_search";
  if (s.kind != QueryKind::kCount) name += "_" + std::to_string(static_cast<int>(s.order));
  return name;
}

std::vector<std::string> paramsOf(const QueryShape& s, const ResponseFilter& f, int64_t offset,
                                  int limit, const Anchor* anchor) {
  std::vector<std::string> params{f.workspace_uuid};
  if (s.link) params.push_back(f.link_uuid);
  if (s.one_status) {
    params.emplace_back(f.status == StatusFilter::kCompleted ? "completed" : "in_progress");
  }
  if (s.bounded) {
    params.push_back(std::to_string(f.since_micros.value_or(kEarliest)));
    params.push_back(std::to_string(f.until_micros.value_or(kLatest)));
  }
  if (s.search) params.push_back(containsPattern(f.search));
  if (s.search_keys) params.push_back(f.search);
  if (s.kind == QueryKind::kSeek) {
    params.push_back(std::to_string(anchor->sort_micros));
    params.push_back(anchor->uuid);
  }
  if (s.kind != QueryKind::kCount && s.kind != QueryKind::kExport) {
    params.push_back(std::to_string(limit));
    params.push_back(std::to_string(offset));
  }
  return params;
}

// `sql` with each $n replaced by the quoted n-th value, in one pass (so that a value holding
// "$1" stays as it is).
std::string withValues(pqxx::transaction_base& tx, const std::string& sql,
                       const std::vector<std::string>& values) {
  std::string out;
  out.reserve(sql.size() + 64 * values.size());
  for (std::size_t i = 0; i < sql.size(); ++i) {
    if (sql[i] != '$' || i + 1 >= sql.size() ||
        !std::isdigit(static_cast<unsigned char>(sql[i + 1]))) {
      out += sql[i];
      continue;
    }
    std::size_t n = 0;
    while (i + 1 < sql.size() && std::isdigit(static_cast<unsigned char>(sql[i + 1]))) {
      n = n * 10 + static_cast<std::size_t>(sql[++i] - '0');
    }
    out += tx.quote(values.at(n - 1));
  }
  return out;
}

}  // namespace

QueryShape shapeOf(const ResponseFilter& f, QueryKind kind, Ordering order) {
  QueryShape shape;
  shape.kind = kind;
  shape.link = !f.link_uuid.empty();
  shape.one_status = f.status != StatusFilter::kAll;
  shape.bounded = f.since_micros.has_value() || f.until_micros.has_value();
  shape.search = !f.search.empty();
  shape.search_keys = hasSearchKeys(f.search);
  shape.order = order;
  return shape;
}

std::string searchSql(pqxx::transaction_base& tx, const QueryShape& shape,
                      const ResponseFilter& filter, int64_t offset, int limit) {
  return withValues(tx, statementSql(shape), paramsOf(shape, filter, offset, limit, nullptr));
}

std::string exportSql(pqxx::transaction_base& tx, const ResponseFilter& filter, Ordering order) {
  const QueryShape shape = shapeOf(filter, QueryKind::kExport, order);
  return withValues(tx, statementSql(shape), paramsOf(shape, filter, 0, 0, nullptr));
}

pqxx::result runQuery(pqxx::transaction_base& tx, const QueryShape& shape,
                      const ResponseFilter& filter, int64_t offset, int limit,
                      const Anchor* anchor) {
  if (shape.search) return tx.exec(searchSql(tx, shape, filter, offset, limit));
  const auto params = paramsOf(shape, filter, offset, limit, anchor);
  return tx.exec_prepared(nameOf(shape), pqxx::prepare::make_dynamic_params(params));
}

void prepareQueries(pqxx::connection& c) {
  constexpr Ordering kOrders[] = {Ordering::kSubmittedAsc, Ordering::kSubmittedDesc,
                                  Ordering::kEmailAsc, Ordering::kEmailDesc};
  for (QueryKind kind :
       {QueryKind::kCount, QueryKind::kPage, QueryKind::kCounted, QueryKind::kSeek}) {
    for (bool link : {false, true}) {
      for (bool one_status : {false, true}) {
        for (bool bounded : {false, true}) {
          for (Ordering order : kOrders) {
            if (kind == QueryKind::kSeek && !seeks(order)) continue;
            QueryShape shape{.kind = kind,
                             .link = link,
                             .one_status = one_status,
                             .bounded = bounded,
                             .order = order};
            c.prepare(nameOf(shape), statementSql(shape));
            if (kind == QueryKind::kCount) break;  // one count for every order
          }
        }
      }
    }
  }
}

bool hasSearchKeys(std::string_view search) {
  return questions::characterCount(search) >= 3;
}

std::string containsPattern(std::string_view search) {
  std::string out = "%";
  for (char c : search) {
    if (c == '%' || c == '_' || c == '\\') out += '\\';
    out += c;
  }
  out += '%';
  return out;
}

}  // namespace feedback::responses
