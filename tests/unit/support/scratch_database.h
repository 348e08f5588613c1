#pragma once
// A database of its own for a test of a store's SQL, created beside DATABASE_URL's (on
// the same server) and dropped afterwards, with the links, responses and webhooks schemas from
// services/*/migrations: a test that sets statistics or fills queues disturbs no stack. And the
// helpers such tests share.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <sstream>
#include <string>
#include <vector>

#include "common/core/ids.h"
#include "common/pg/migrations.h"

namespace pg_test {

using feedback::Migration;
using feedback::newUuid;

// Runs one statement outside a transaction block.
inline void exec(pqxx::connection& c, const std::string& statement) {
  pqxx::nontransaction tx(c);
  tx.exec(statement);
}

// Pages a statement read or found in the buffer cache, from EXPLAIN (ANALYZE, BUFFERS) of its
// execution, which is rolled back: the sum over its plan's nodes. A node counts its children's
// pages too, so a page counts once per level above it; but data-modifying CTEs that nothing
// reads run after the top node and count only in their own, so no single node has the total.
// A measure to compare, not a count. The second of two runs: the first after a drain marks the
// dead index entries it passes, as the dispatcher's first statement after a drain does.
inline long pagesRead(pqxx::connection& c, const std::string& execute) {
  long pages = 0;
  for (int run = 0; run < 2; ++run) {
    pqxx::work tx(c);
    auto plan = tx.exec1("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + execute)[0].as<std::string>();
    plan = plan.substr(0, plan.find("\"Planning\":"));  // the plan's nodes, not its planning
    pages = 0;
    for (const std::string name : {"\"Shared Hit Blocks\": ", "\"Shared Read Blocks\": "}) {
      for (auto at = plan.find(name); at != std::string::npos; at = plan.find(name, at + 1)) {
        pages += std::stol(plan.substr(at + name.size()));
      }
    }
  }
  return pages;
}

// A service's migrations as its binary embeds them, read from services/<schema>/migrations.
class SchemaMigrations {
 public:
  explicit SchemaMigrations(const std::string& schema) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(
             std::string(SOURCE_DIR) + "/services/" + schema + "/migrations")) {
      files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      std::ifstream in(file);
      std::stringstream sql;
      sql << in.rdbuf();
      names_.push_back(file.filename().string());
      sqls_.push_back(sql.str());
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
      migrations_.push_back({std::stoi(names_[i]), names_[i], sqls_[i]});
    }
  }
  SchemaMigrations(const SchemaMigrations&) = delete;
  SchemaMigrations& operator=(const SchemaMigrations&) = delete;
  // Views of the strings kept here.
  const std::vector<Migration>& migrations() const { return migrations_; }

 private:
  std::vector<std::string> names_, sqls_;
  std::vector<Migration> migrations_;
};

class ScratchDatabase {
 public:
  // `migrated`: with the links, responses and webhooks schemas; else empty.
  explicit ScratchDatabase(const std::string& purpose, bool migrated = true) {
    const char* url = std::getenv("DATABASE_URL");
    REQUIRE(url != nullptr);
    admin_url_ = url;
    name_ = purpose + "_" + newUuid().substr(0, 8);
    const auto slash = admin_url_.rfind('/');
    REQUIRE(slash != std::string::npos);
    url_ = admin_url_.substr(0, slash + 1) + name_;
    execAt(admin_url_, "CREATE DATABASE " + name_);
    if (!migrated) return;
    for (const char* schema : {"links", "responses", "webhooks"}) {
      feedback::applyMigrations(url_, schema, SchemaMigrations(schema).migrations());
    }
  }
  ~ScratchDatabase() {
    try {
      execAt(admin_url_, "DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
    } catch (const std::exception&) {
      // A database left behind is harmless: its name is the test's own.
    }
  }
  ScratchDatabase(const ScratchDatabase&) = delete;
  ScratchDatabase& operator=(const ScratchDatabase&) = delete;
  const std::string& url() const { return url_; }

 private:
  static void execAt(const std::string& url, const std::string& statement) {
    pqxx::connection c(url);
    exec(c, statement);
  }

  std::string admin_url_, url_, name_;
};

}  // namespace pg_test
