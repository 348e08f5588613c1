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

// Applies the migrations not yet recorded in <schema>.schema_migrations, in version order,
// each in its own transaction. Retries the connection for up to `wait_seconds`.
void applyMigrations(const std::string& database_url, const std::string& schema,
                     const std::vector<Migration>& migrations, int wait_seconds = 30);

}  // namespace feedback
