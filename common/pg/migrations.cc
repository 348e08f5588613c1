#include "common/pg/migrations.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <pqxx/pqxx>
#include <thread>
#include <utility>

#include "common/core/log.h"
#include "common/pg/connect.h"

namespace feedback {
namespace {

std::unique_ptr<pqxx::connection> connectWithRetry(const std::string& url, int wait_seconds) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(wait_seconds);
  for (;;) {
    try {
      return pg::connect(url);
    } catch (const pqxx::broken_connection& e) {
      if (std::chrono::steady_clock::now() >= deadline) throw;
      log::warn("migrations_waiting_for_postgres", {{"error", e.what()}});
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
  }
}

bool applied(pqxx::transaction_base& tx, const std::string& schema, int version) {
  return !tx.exec_params(
                "SELECT 1 FROM " + tx.quote_name(schema) + ".schema_migrations WHERE version = $1",
                version)
              .empty();
}

bool applied(pqxx::connection& conn, const std::string& schema, int version) {
  pqxx::nontransaction tx(conn);
  return applied(tx, schema, version);
}

}  // namespace

std::vector<std::string> migrationStatements(std::string_view sql) {
  std::vector<std::string> statements;
  std::string current;
  bool quoted = false;  // inside a $$-quoted body (a function's, a DO block's)
  while (!sql.empty()) {
    const auto end = sql.find('\n');
    const auto line = sql.substr(0, end);
    sql.remove_prefix(end == std::string_view::npos ? sql.size() : end + 1);
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || (!quoted && line.substr(first, 2) == "--")) continue;
    current.append(line).append("\n");
    for (auto at = line.find("$$"); at != std::string_view::npos; at = line.find("$$", at + 2)) {
      quoted = !quoted;
    }
    const auto last = line.find_last_not_of(" \t\r");
    if (!quoted && line[last] == ';') statements.push_back(std::exchange(current, {}));
  }
  if (current.find_first_not_of(" \t\r\n") != std::string::npos) statements.push_back(current);
  return statements;
}

void applyMigrations(const std::string& database_url, const std::string& schema,
                     const std::vector<Migration>& migrations, int wait_seconds) {
  auto conn = connectWithRetry(database_url, wait_seconds);
  const std::string lock_key = "feedback.migrations." + schema;
  // Taken by asking again rather than by waiting in pg_advisory_lock: a statement waiting for
  // the lock holds a snapshot, and a CREATE INDEX CONCURRENTLY run by the holder waits for
  // every older snapshot to end, so the two would wait on each other (a deadlock PostgreSQL
  // ends by failing one of them).
  while (true) {
    {
      pqxx::nontransaction tx(*conn);
      if (tx.exec_params1("SELECT pg_try_advisory_lock(hashtext($1))", lock_key)[0].as<bool>()) {
        break;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  try {
    {
      pqxx::work tx(*conn);
      tx.exec("CREATE SCHEMA IF NOT EXISTS " + tx.quote_name(schema));
      tx.exec("CREATE TABLE IF NOT EXISTS " + tx.quote_name(schema) +
              ".schema_migrations (version integer PRIMARY KEY, name text NOT NULL, "
              "applied_at timestamptz NOT NULL DEFAULT now())");
      tx.commit();
    }
    std::vector<Migration> ordered = migrations;
    std::sort(ordered.begin(), ordered.end(),
              [](const Migration& a, const Migration& b) { return a.version < b.version; });
    for (const auto& m : ordered) {
      const bool outside = m.sql.substr(0, kOutsideTransaction.size()) == kOutsideTransaction;
      if (outside && !applied(*conn, schema, m.version)) {
        // Such a migration may take minutes on a large table (a backfill, an index built
        // while writes go on): say so before, not only once it is done.
        log::info("migration_applying",
                  {{"schema", schema}, {"version", m.version}, {"name", m.name}});
        pqxx::nontransaction session(*conn);
        session.exec("SET search_path TO " + session.quote_name(schema));
        for (const auto& statement : migrationStatements(m.sql)) session.exec(statement);
        session.exec("RESET search_path");
      }
      pqxx::work tx(*conn);
      if (applied(tx, schema, m.version)) continue;
      if (!outside) {
        tx.exec("SET LOCAL search_path TO " + tx.quote_name(schema));
        tx.exec(std::string(m.sql));
      }
      tx.exec_params("INSERT INTO " + tx.quote_name(schema) +
                         ".schema_migrations (version, name) VALUES ($1, $2)",
                     m.version, std::string(m.name));
      tx.commit();
      log::info("migration_applied",
                {{"schema", schema}, {"version", m.version}, {"name", m.name}});
    }
  } catch (...) {
    pqxx::nontransaction tx(*conn);
    tx.exec_params("SELECT pg_advisory_unlock(hashtext($1))", lock_key);
    throw;
  }
  pqxx::nontransaction tx(*conn);
  tx.exec_params("SELECT pg_advisory_unlock(hashtext($1))", lock_key);
}

}  // namespace feedback
