#pragma once
// An export's rows as cells (CSV and XLSX write them): a response's own columns, then each
// question's (questions::exportColumns), its answers found by question.

#include <boost/json/object.hpp>
#include <functional>
#include <string>
#include <vector>

#include "common/questions/export_cells.h"
#include "feedback/responses/v1/responses.pb.h"

namespace feedback::responses {

class CellRows {
 public:
  explicit CellRows(std::vector<questions::Question> questions);

  // The columns' names: response_uuid, status, respondent_email, started_at, submitted_at,
  // then the questions'.
  std::vector<std::string> header() const;

  // Calls `each` with every cell of the response's row, in the header's order (a timestamp's
  // number: its unix seconds).
  void forEachCell(const feedback::responses::v1::Response& response,
                   const std::function<void(const questions::Cell&)>& each);

 private:
  void place(const boost::json::object& answer);

  std::vector<questions::Question> questions_;
  std::vector<questions::ExportColumn> columns_;
  std::vector<const boost::json::object*> answers_by_question_;
};

}  // namespace feedback::responses
