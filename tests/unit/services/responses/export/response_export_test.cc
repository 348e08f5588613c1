// Exports (docs/api.md "Exports") through the rules on the in-memory store: CSV's byte order
// mark, header, quoting and formula guard, NDJSON's records as the list shows them, and a
// client that leaves stopping the reads.
#include "services/responses/export/response_export.h"

#include <stdlib.h>

#include <filesystem>

#include "common/core/time.h"
#include "tests/unit/services/responses/responses_fixture.h"

using namespace responses_test;

namespace {

struct ExportFixture : Fixture {
  responses::ResponseExport rules{nullptr};

  ExportFixture() {
    auto& l = change();
    l.clear_questions();
    *l.add_questions() = question("comment", "text");
    *l.add_questions() = question("score", "number", R"({"min": -10, "max": 10})");
    *l.add_questions() = question("note", "help_block", R"({"content": "Thanks"})");
  }

  v1::ExportResponsesRequest request(const char* format) const {
    v1::ExportResponsesRequest r;
    r.mutable_caller()->mutable_workspace()->set_uuid(kWorkspace);
    *r.mutable_link() = link.link();
    r.set_format(format);
    r.set_ordering("submitted_at");
    return r;
  }

  // The whole file, and the number of chunks it came in.
  std::pair<std::string, int> file(const char* format) {
    std::string out;
    int chunks = 0;
    rules.write(store, rules.plan(request(format)), [&](std::string& chunk) {
      out += chunk;
      ++chunks;
      return true;
    });
    return {out, chunks};
  }
};

std::vector<std::string> lines(const std::string& text, const std::string& end) {
  std::vector<std::string> out;
  std::size_t at = 0;
  for (std::size_t next; (next = text.find(end, at)) != std::string::npos; at = next + end.size()) {
    out.push_back(text.substr(at, next - at));
  }
  CHECK(at == text.size());  // every line ends
  return out;
}

}  // namespace

TEST_CASE_METHOD(ExportFixture, "a CSV export: byte order mark, header, quoting, formula guard") {
  const auto first = oneShot({{"comment", R"("=HYPERLINK(\"x\"), said \"hi\"")"}, {"score", "-3"}});
  const auto second = oneShot({{"comment", "\"line one\\nline two\""}});
  const auto [csv, chunks] = file("csv");
  REQUIRE(csv.rfind("\xEF\xBB\xBF", 0) == 0);
  const auto rows = lines(csv.substr(3), "\r\n");
  REQUIRE(rows.size() >= 3);
  CHECK(rows[0] ==
        "response_uuid,status,respondent_email,started_at,submitted_at,comment,comment.sentiment,"
        "comment.sentiment_score,comment.summary,comment.key_topics,score");
  const std::string started = feedback::formatTimestamp(first.started_at_micros());
  const std::string submitted = feedback::formatTimestamp(first.submitted_at_micros());
  REQUIRE(rows.size() == 3);
  const auto& row_of_first = rows[1].rfind(first.uuid(), 0) == 0 ? rows[1] : rows[2];
  const auto& row_of_second = rows[1].rfind(first.uuid(), 0) == 0 ? rows[2] : rows[1];
  // Free text starting like a formula gets a quote; the negative number does not.
  CHECK(row_of_first.rfind(first.uuid() + ",completed,," + started + "," + submitted +
                               ",\"'=HYPERLINK(\"\"x\"\"), said \"\"hi\"\"\",",
                           0) == 0);
  CHECK(row_of_first.substr(row_of_first.size() - 3) == ",-3");
  // A line break stays inside its quoted field (a bare LF: rows end with CRLF).
  CHECK(row_of_second.rfind(second.uuid(), 0) == 0);
  CHECK(row_of_second.find("\"line one\nline two\"") != std::string::npos);
  CHECK(chunks == 1);
}

TEST_CASE_METHOD(ExportFixture, "an NDJSON export holds the list's records, one per line") {
  const auto a = oneShot({{"comment", "\"fine\""}});
  const auto b = oneShot({{"score", "4"}});
  const auto [ndjson, chunks] = file("ndjson");
  auto got = lines(ndjson, "\n");
  std::vector<std::string> expected{feedback::api::renderResponse(a),
                                    feedback::api::renderResponse(b)};
  std::sort(got.begin(), got.end());
  std::sort(expected.begin(), expected.end());
  CHECK(got == expected);
  CHECK(chunks == 1);
}

TEST_CASE_METHOD(ExportFixture, "an export of nothing is the header alone, or nothing") {
  CHECK(file("csv").first.find("\r\n") == file("csv").first.size() - 2);
  CHECK(file("ndjson").first.empty());
}

TEST_CASE_METHOD(ExportFixture, "a client that leaves stops the reads") {
  // Long answers, so that the file fills several chunks.
  const std::string long_text = "\"" + std::string(2000, 'x') + "\"";
  for (int i = 0; i < 1200; ++i) oneShot({{"comment", long_text}});
  int chunks = 0;
  rules.write(store, rules.plan(request("csv")), [&](std::string&) {
    ++chunks;
    return false;
  });
  CHECK(chunks == 1);
  CHECK(store.export_batches == 1);  // of the three batches of 500
  store.export_batches = 0;
  const auto [csv, all_chunks] = file("csv");
  CHECK(store.export_batches == 3);
  CHECK(all_chunks > 30);  // 64 KiB each
}

TEST_CASE_METHOD(ExportFixture, "an export's request is checked") {
  CHECK(failure([&] { rules.plan(request("xml")); }).first == ErrorCode::kValidationError);
  auto r = request("csv");
  r.set_ordering("price");
  CHECK(failure([&] { rules.plan(r); }).first == ErrorCode::kInvalidOrdering);
  r = request("csv");
  r.set_status("gone");
  CHECK(failure([&] { rules.plan(r); }).first == ErrorCode::kValidationError);
}

TEST_CASE_METHOD(ExportFixture, "an XLSX export is a ZIP archive made in a temporary file") {
  const std::string directory = std::filesystem::temp_directory_path() / "export-test-XXXXXX";
  std::string made = directory;
  REQUIRE(mkdtemp(made.data()));
  responses::ResponseExport in_directory(nullptr, {.temporary_directory = made});
  for (int i = 0; i < 300; ++i) oneShot({{"comment", "\"" + std::string(500, 'y') + "\""}});
  std::string xlsx;
  int chunks = 0;
  in_directory.write(store, in_directory.plan(request("xlsx")), [&](std::string& chunk) {
    // While the file is sent, nothing of it is left in the directory but open handles.
    CHECK(std::filesystem::is_empty(made));
    xlsx += chunk;
    ++chunks;
    return true;
  });
  CHECK(xlsx.rfind("PK\x03\x04", 0) == 0);
  CHECK(chunks >= 1);
  // A client that leaves during the archive leaves no file behind either.
  in_directory.write(store, in_directory.plan(request("xlsx")),
                     [&](std::string&) { return false; });
  CHECK(std::filesystem::is_empty(made));
  std::filesystem::remove_all(made);
}

TEST_CASE_METHOD(ExportFixture, "a response larger than a chunk is sent in chunks") {
  const auto made = oneShot({{"comment", "\"short\""}});
  // As if its answer were far longer than any chunk (and than a gRPC message may be).
  auto& row = store.rows.at(made.uuid());
  const std::string huge(5 * 1024 * 1024, 'z');
  row.response.set_answers_json(
      R"([{"uuid":"a","question_uuid":")" + link.link().questions(0).uuid() +
      R"(","field_key":"comment","response_type":"text","value":")" + huge + R"("}])");
  std::string csv;
  std::size_t largest = 0;
  int chunks = 0;
  rules.write(store, rules.plan(request("csv")), [&](std::string& chunk) {
    largest = std::max(largest, chunk.size());
    csv += chunk;
    ++chunks;
    return true;
  });
  CHECK(largest <= responses::ResponseExport::kChunkBytes);
  CHECK(chunks >= 80);
  CHECK(csv.find("," + huge + ",") != std::string::npos);
}
