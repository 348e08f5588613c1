#pragma once
// Every PostgreSQL connection the services open: the server's settings that our statements
// rely on are set here, in one place, whatever the server's configuration says.

#include <memory>
#include <pqxx/connection>
#include <string>

namespace feedback::pg {

// Opens a connection to `url` and sets, for its session:
//   jit = off   A prepared statement's generic plan prices its LIMIT parameter as a tenth of
//               the rows it may read; on a large table that passes jit_above_cost, and every
//               execution compiled code for 7-25 ms to read 20 rows (a page of responses on a
//               link of 100,000 beside one of 1,000,000: 4,500 pages/s fell to 226). Our
//               statements are short; none gains from compilation.
// Throws what pqxx::connection throws.
std::unique_ptr<pqxx::connection> connect(const std::string& url);

}  // namespace feedback::pg
