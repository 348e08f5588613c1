// The outbox trigger's channel, written in a migration's SQL, is the one the dispatchers
// listen on (common/webhooks/webhook_rules.h): were they to differ, events would wait for the
// dispatchers' fallback poll instead of waking them.
#include <catch2/catch.hpp>
#include <string>

#include "common/pg/migrations.h"
#include "common/webhooks/webhook_rules.h"

namespace feedback::responses {
std::vector<Migration> migrations();
}

TEST_CASE("responses: the outbox trigger notifies the channel the dispatchers listen on",
          "[responses][outbox]") {
  const std::string call = "pg_notify('" + std::string(feedback::webhooks::kOutboxChannel) + "'";
  int notifying = 0;
  for (const auto& migration : feedback::responses::migrations()) {
    const std::string sql(migration.sql);
    for (auto at = sql.find("pg_notify("); at != std::string::npos;
         at = sql.find("pg_notify(", at + 1)) {
      INFO("migration " << migration.version << " " << migration.name);
      CHECK(sql.compare(at, call.size(), call) == 0);
      ++notifying;
    }
    // A NOTIFY statement names its channel too.
    const std::string statement = "NOTIFY " + std::string(feedback::webhooks::kOutboxChannel);
    for (auto at = sql.find("NOTIFY "); at != std::string::npos; at = sql.find("NOTIFY ", at + 1)) {
      INFO("migration " << migration.version << " " << migration.name);
      CHECK(sql.compare(at, statement.size(), statement) == 0);
      ++notifying;
    }
  }
  CHECK(notifying >= 1);
}
