#pragma once
// Versioned SQL migrations, each service in its own PostgreSQL schema. Applied at start-up
// under an advisory lock so that replicas starting together apply each file exactly once.

#include <string>
#include <string_view>
#include <vector>

namespace feedback {

struct Migration {
  int version;
  std::string_view name;
  std::string_view sql;
};

// A migration whose text begins with this line runs outside a transaction, one statement at a
// time (each ends with ";" at the end of a line, outside $$-quoted bodies: no comment may follow
// the ";", and bodies are quoted with $$ alone), so that it may build an index CONCURRENTLY: on a
// table of millions of rows a plain CREATE INDEX holds every write, those of replicas still serving
// during a rollout included, until it is built. Such a migration is run again from the start when
// it was interrupted, so each of its statements must tolerate a rerun (DROP INDEX CONCURRENTLY IF
// EXISTS before CREATE INDEX CONCURRENTLY: an interrupted build leaves an invalid index behind).
inline constexpr std::string_view kOutsideTransaction = "-- migration: outside a transaction\n";

// The statements of a migration run outside a transaction, in order.
std::vector<std::string> migrationStatements(std::string_view sql);

// Applies the migrations not yet recorded in <schema>.schema_migrations, in version order,
// each in its own transaction (or none: kOutsideTransaction). Retries the connection for up
// to `wait_seconds`.
void applyMigrations(const std::string& database_url, const std::string& schema,
                     const std::vector<Migration>& migrations, int wait_seconds = 30);

}  // namespace feedback
