#include "services/responses/response_queries.h"

#include <cctype>

#include "services/responses/response_columns.h"

namespace feedback::responses {
namespace {

// Time bounds when only one is given: the years 1 and 9999.
constexpr int64_t kEarliest = -62135596800000000;
constexpr int64_t kLatest = 253402300799999999;

// The number of each parameter a shape takes (0: not taken), in this order: workspace,
// [link], [status], [since, until], [pattern], [limit, offset].
struct Numbering {
  int workspace = 1, link = 0, status = 0, since = 0, until = 0, pattern = 0, limit = 0, offset = 0;
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
  if (s.kind != QueryKind::kCount) {
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

std::string whereOf(const QueryShape& s, const Numbering& n) {
  std::string sql = " WHERE workspace_uuid = " + param(n.workspace);
  if (s.link) sql += " AND link_uuid = " + param(n.link);
  if (s.one_status) sql += " AND status = " + param(n.status);
  if (s.bounded) {
    sql += " AND sort_at >= " + fromMicros(n.since);
    sql += " AND sort_at <= " + fromMicros(n.until);
  }
  if (s.search) sql += " AND search_text ILIKE " + param(n.pattern);
  return sql;
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

std::string limitOf(const Numbering& n) {
  return " LIMIT " + param(n.limit) + " OFFSET " + param(n.offset);
}

// The number of matches. Without search or time bounds it is the sum of the links' rows of
// link_counts (a handful of rows), not a pass over the responses.
std::string countSql(const QueryShape& s, const Numbering& n) {
  if (s.bounded || s.search) return "SELECT count(*) FROM responses.responses" + whereOf(s, n);
  const std::string counted = s.one_status
                                  ? "CASE WHEN " + param(n.status) +
                                        " = 'completed' THEN completed ELSE started - completed END"
                                  : std::string("started");
  std::string sql =
      "SELECT COALESCE(sum(" + counted +
      "), 0)::bigint FROM responses.link_counts WHERE workspace_uuid = " + param(n.workspace);
  if (s.link) sql += " AND link_uuid = " + param(n.link);
  return sql;
}

std::string pageSql(const QueryShape& s, const Numbering& n) {
  return "SELECT " RESPONSE_COLUMNS ", sort_at FROM responses.responses" + whereOf(s, n) +
         orderBy(s.order, "") + limitOf(n);
}

// One row per response of the page, each with the count; one row of nulls but the count when
// the page is past the end.
std::string countedSql(const QueryShape& s, const Numbering& n) {
  const std::string tail = ") AS p ON true" + orderBy(s.order, "p.");
  if (!s.search) {
    return "SELECT p.*, total.n FROM (" + countSql(s, n) + ") AS total (n) LEFT JOIN LATERAL (" +
           pageSql(s, n) + tail;
  }
  // A search visits every match to count them: the matches are gathered once, narrow (no
  // answers), and only the page's rows are read whole.
  return "WITH matches AS MATERIALIZED (SELECT uuid, sort_at, respondent_email "
         "FROM responses.responses" +
         whereOf(s, n) +
         ") SELECT p.*, total.n FROM (SELECT count(*) FROM matches) AS total (n) "
         "LEFT JOIN LATERAL (SELECT " RESPONSE_COLUMNS_OF("r.") ", r.sort_at FROM (SELECT uuid "
         "FROM matches" +
         orderBy(s.order, "") + limitOf(n) +
         ") AS m JOIN responses.responses AS r ON r.uuid = m.uuid" + tail;
}

std::string sqlOf(const QueryShape& s) {
  const Numbering n = numberingOf(s);
  switch (s.kind) {
    case QueryKind::kCount:
      return countSql(s, n);
    case QueryKind::kPage:
      return pageSql(s, n);
    case QueryKind::kCounted:
      return countedSql(s, n);
  }
  return "";
}

std::string nameOf(const QueryShape& s) {
  static constexpr const char* kKinds[] = {"count", "page", "counted"};
  std::string name = std::string("responses_") + kKinds[static_cast<int>(s.kind)];
  if (s.link) name += "_link";
  if (s.one_status) name += "_status";
  if (s.bounded) name += "_bounded";
  if (s.search) name += "_search";
  if (s.kind != QueryKind::kCount) name += "_" + std::to_string(static_cast<int>(s.order));
  return name;
}

std::vector<std::string> paramsOf(const QueryShape& s, const ResponseFilter& f, int64_t offset,
                                  int limit) {
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
  if (s.kind != QueryKind::kCount) {
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
  shape.order = order;
  return shape;
}

pqxx::result runQuery(pqxx::transaction_base& tx, const QueryShape& shape,
                      const ResponseFilter& filter, int64_t offset, int limit) {
  const auto params = paramsOf(shape, filter, offset, limit);
  if (shape.search) return tx.exec(withValues(tx, sqlOf(shape), params));
  return tx.exec_prepared(nameOf(shape), pqxx::prepare::make_dynamic_params(params));
}

void prepareQueries(pqxx::connection& c) {
  constexpr Ordering kOrders[] = {Ordering::kSubmittedAsc, Ordering::kSubmittedDesc,
                                  Ordering::kEmailAsc, Ordering::kEmailDesc};
  for (QueryKind kind : {QueryKind::kCount, QueryKind::kPage, QueryKind::kCounted}) {
    for (bool link : {false, true}) {
      for (bool one_status : {false, true}) {
        for (bool bounded : {false, true}) {
          for (Ordering order : kOrders) {
            QueryShape shape{kind, link, one_status, bounded, false, order};
            c.prepare(nameOf(shape), sqlOf(shape));
            if (kind == QueryKind::kCount) break;  // one count for every order
          }
        }
      }
    }
  }
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
