#include "services/responses/export/export_xlsx.h"

#include <unistd.h>
#include <xlsxwriter.h>

#include <cstdio>
#include <stdexcept>

#include "services/responses/export/export_rows.h"

namespace feedback::responses {
namespace {

namespace rv1 = feedback::responses::v1;
using questions::Cell;
using questions::CellKind;

// The longest text a cell holds (Excel's limit, in characters); longer texts are cut, at a
// character's start.
constexpr std::size_t kMaxCellBytes = 32767;
// Days from Excel's epoch (1899-12-30) to the Unix epoch.
constexpr double kUnixEpochInExcelDays = 25569.0;

std::string_view cutToCell(std::string_view text) {
  if (text.size() <= kMaxCellBytes) return text;
  std::size_t end = kMaxCellBytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

void check(lxw_error error, const char* what) {
  if (error != LXW_NO_ERROR) {
    throw std::runtime_error(std::string("xlsx: ") + what + ": " + lxw_strerror(error));
  }
}

// Closes the worksheets' temporary files, which libxlsxwriter closes only while it makes the
// archive: a workbook given up would keep them (unlinked, but open: their disk space in use).
void closeSheetFiles(lxw_workbook* workbook) {
  lxw_worksheet* sheet;
  STAILQ_FOREACH(sheet, workbook->worksheets, list_pointers) {
    if (sheet->optimize_tmpfile) {
      std::fclose(sheet->optimize_tmpfile);
      sheet->optimize_tmpfile = nullptr;
    }
  }
}

// Numbers as numeric cells, timestamps as date cells, text as text, booleans as the text
// "true" or "false" as in CSV (never formulas: a string cell is never read as one).
class XlsxFormat final : public ExportFormat {
 public:
  XlsxFormat(std::vector<questions::Question> questions, const ExportOptions& options)
      : rows_(std::move(questions)), directory_(options.temporary_directory) {
    std::string path = directory_ + "/feedback-export-XXXXXX";
    const int fd = mkstemp(path.data());
    if (fd < 0) throw std::runtime_error("xlsx: no temporary file in " + directory_);
    ::close(fd);
    path_ = path;
    lxw_workbook_options workbook_options{
        .constant_memory = LXW_TRUE, .tmpdir = directory_.data(), .use_zip64 = LXW_TRUE};
    workbook_ = workbook_new_opt(path_.c_str(), &workbook_options);
    if (!workbook_) {
      ::unlink(path_.c_str());
      throw std::runtime_error("xlsx: the workbook could not be made");
    }
    date_ = workbook_add_format(workbook_);
    format_set_num_format(date_, "yyyy-mm-dd hh:mm:ss.000");
  }

  ~XlsxFormat() override {
    if (workbook_) {  // given up: nothing is written
      closeSheetFiles(workbook_);
      lxw_workbook_free(workbook_);
    }
    if (file_) std::fclose(file_);
    ::unlink(path_.c_str());
  }

  void begin(std::string&) override { newSheet(); }

  void add(const rv1::Response& response, std::string&) override {
    if (row_ == LXW_ROW_MAX) newSheet();
    lxw_col_t col = 0;
    rows_.forEachCell(response, [&](const Cell& cell) { write(row_, col++, cell); });
    ++row_;
  }

  bool end(std::string& out, std::size_t limit) override {
    if (workbook_) {
      lxw_workbook* workbook = workbook_;
      workbook_ = nullptr;  // freed by workbook_close, whatever it answers
      check(workbook_close(workbook), "closing the workbook");
      file_ = std::fopen(path_.c_str(), "rb");
      if (!file_) throw std::runtime_error("xlsx: the finished workbook cannot be read");
      ::unlink(path_.c_str());  // gone with the last handle
    }
    const std::size_t had = out.size();
    out.resize(had + limit);
    const std::size_t got = std::fread(out.data() + had, 1, limit, file_);
    out.resize(had + got);
    if (got < limit && std::ferror(file_)) throw std::runtime_error("xlsx: reading the workbook");
    return got == limit;
  }

 private:
  // A worksheet holds 1,048,576 rows: the responses go on in another, under the same header.
  void newSheet() {
    ++sheets_;
    const std::string name = sheets_ == 1 ? "Responses" : "Responses " + std::to_string(sheets_);
    sheet_ = workbook_add_worksheet(workbook_, name.c_str());
    if (!sheet_) throw std::runtime_error("xlsx: no worksheet");
    lxw_col_t col = 0;
    for (const auto& name : rows_.header()) {
      check(worksheet_write_string(sheet_, 0, col++, name.c_str(), nullptr), "header");
    }
    row_ = 1;
  }

  void write(lxw_row_t row, lxw_col_t col, const Cell& cell) {
    switch (cell.kind) {
      case CellKind::kEmpty:
        return;
      case CellKind::kNumber:
        return check(worksheet_write_number(sheet_, row, col, cell.number, nullptr), "number");
      case CellKind::kTimestamp:
        return check(worksheet_write_number(sheet_, row, col,
                                            cell.number / 86400.0 + kUnixEpochInExcelDays, date_),
                     "date");
      case CellKind::kFreeText:
      case CellKind::kNormalised:
      case CellKind::kBoolean: {
        const std::string text(cutToCell(cell.text));
        return check(worksheet_write_string(sheet_, row, col, text.c_str(), nullptr), "text");
      }
    }
  }

  CellRows rows_;
  std::string directory_;
  std::string path_;
  lxw_workbook* workbook_ = nullptr;
  lxw_worksheet* sheet_ = nullptr;
  lxw_format* date_ = nullptr;
  lxw_row_t row_ = 0;
  int sheets_ = 0;
  std::FILE* file_ = nullptr;
};

}  // namespace

bool writableDirectory(const std::string& directory) {
  std::string path = directory + "/feedback-check-XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) return false;
  ::close(fd);
  ::unlink(path.c_str());
  return true;
}

std::unique_ptr<ExportFormat> makeXlsxFormat(std::vector<questions::Question> questions,
                                             const ExportOptions& options) {
  return std::make_unique<XlsxFormat>(std::move(questions), options);
}

}  // namespace feedback::responses
