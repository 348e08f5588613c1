#pragma once
// A database of its own for a test of the dispatcher's SQL, created beside DATABASE_URL's (on
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

namespace webhooks_test {

using feedback::Migration;
using feedback::newUuid;

// Runs one statement outside a transaction block.
inline void exec(pqxx::connection& c, const std::string& statement) {
  pqxx::nontransaction tx(c);
  tx.exec(statement);
}

class ScratchDatabase {
 public:
  explicit ScratchDatabase(const std::string& purpose) {
    const char* url = std::getenv("DATABASE_URL");
    REQUIRE(url != nullptr);
    admin_url_ = url;
    name_ = purpose + "_" + newUuid().substr(0, 8);
    const auto slash = admin_url_.rfind('/');
    REQUIRE(slash != std::string::npos);
    url_ = admin_url_.substr(0, slash + 1) + name_;
    execAt(admin_url_, "CREATE DATABASE " + name_);
    for (const char* schema : {"links", "responses", "webhooks"}) migrate(schema);
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

  void migrate(const std::string& schema) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(
             std::string(SOURCE_DIR) + "/services/" + schema + "/migrations")) {
      files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<std::string> names, sqls;
    for (const auto& file : files) {
      std::ifstream in(file);
      std::stringstream sql;
      sql << in.rdbuf();
      names.push_back(file.filename().string());
      sqls.push_back(sql.str());
    }
    std::vector<Migration> migrations;  // views of the strings above, which stay put now
    for (std::size_t i = 0; i < files.size(); ++i) {
      migrations.push_back({std::stoi(names[i]), names[i], sqls[i]});
    }
    feedback::applyMigrations(url_, schema, migrations);
  }

  std::string admin_url_, url_, name_;
};

}  // namespace webhooks_test
