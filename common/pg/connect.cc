#include "common/pg/connect.h"

#include <pqxx/nontransaction>

namespace feedback::pg {

std::unique_ptr<pqxx::connection> connect(const std::string& url) {
  auto connection = std::make_unique<pqxx::connection>(url);
  {
    pqxx::nontransaction tx(*connection);
    tx.exec("SET jit = off");
  }
  return connection;
}

}  // namespace feedback::pg
