#include "common/pg/migrations.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <pqxx/pqxx>
#include <thread>

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

}  // namespace

void applyMigrations(const std::string& database_url, const std::string& schema,
                     const std::vector<Migration>& migrations, int wait_seconds) {
  auto conn = connectWithRetry(database_url, wait_seconds);
  const std::string lock_key = "feedback.migrations." + schema;
  {
    pqxx::nontransaction tx(*conn);
    tx.exec_params("SELECT pg_advisory_lock(hashtext($1))", lock_key);
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
      pqxx::work tx(*conn);
      auto applied = tx.exec_params(
          "SELECT 1 FROM " + tx.quote_name(schema) + ".schema_migrations WHERE version = $1",
          m.version);
      if (!applied.empty()) continue;
      tx.exec("SET LOCAL search_path TO " + tx.quote_name(schema));
      tx.exec(std::string(m.sql));
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
