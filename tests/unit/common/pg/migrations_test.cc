#include "common/pg/migrations.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using feedback::migrationStatements;

TEST_CASE("a migration outside a transaction runs statement by statement, comments left out",
          "[pg]") {
  const std::string sql = std::string(feedback::kOutsideTransaction) +
                          "-- Why the index is there.\n"
                          "DROP INDEX CONCURRENTLY IF EXISTS a;\n"
                          "CREATE INDEX CONCURRENTLY a\n"
                          "  ON t (x, y);  \n"
                          "\n"
                          "  -- and a second one\n"
                          "ALTER INDEX a SET (fillfactor = 90)";
  CHECK(migrationStatements(sql) ==
        std::vector<std::string>{"DROP INDEX CONCURRENTLY IF EXISTS a;\n",
                                 "CREATE INDEX CONCURRENTLY a\n  ON t (x, y);  \n",
                                 "ALTER INDEX a SET (fillfactor = 90)\n"});
  CHECK(migrationStatements("-- nothing but a comment\n").empty());
  CHECK(migrationStatements("SELECT 1;\r\n \t\r\nSELECT 2;\r\n") ==
        std::vector<std::string>{"SELECT 1;\r\n", "SELECT 2;\r\n"});
  CHECK(migrationStatements("DO $$\nBEGIN\n  -- a step\n  PERFORM 1;\nEND $$;\nSELECT 2;\n") ==
        std::vector<std::string>{"DO $$\nBEGIN\n  -- a step\n  PERFORM 1;\nEND $$;\n",
                                 "SELECT 2;\n"});
}
