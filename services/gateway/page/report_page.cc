#include "services/gateway/page/report_page.h"

#include <algorithm>
#include <boost/json/parse.hpp>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "services/gateway/page/intake_page.h"

namespace feedback::gateway {
namespace {

namespace lv1 = feedback::links::v1;
using Rows = std::vector<std::pair<std::string, double>>;

std::string number(double value, int decimals = 0) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string percent(double share) {
  return number(share * 100, share * 100 < 10 && share > 0 ? 1 : 0) + "%";
}

const boost::json::value* at(const boost::json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && !v->is_null() ? v : nullptr;
}

double numberOf(const boost::json::value* v) {
  if (!v) return 0;
  if (v->is_int64()) return static_cast<double>(v->get_int64());
  if (v->is_uint64()) return static_cast<double>(v->get_uint64());
  if (v->is_double()) return v->get_double();
  return 0;
}

// Each chart and table gets ids of its own on the page.
class Page {
 public:
  std::string html;

  std::string nextId() { return "c" + std::to_string(++ids_); }

  // A bar per row, as long as its value is of the largest; the table says the same.
  void bars(std::string_view title, std::string_view label_header, const Rows& rows,
            std::string_view value_header = "Responses") {
    double largest = 0, total = 0;
    for (const auto& [_, v] : rows) {
      largest = std::max(largest, v);
      total += v;
    }
    std::string sentence = std::string(title) + ": ";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (i) sentence += ", ";
      sentence += rows[i].first + " " + number(rows[i].second, fractional(rows[i].second));
    }
    sentence += ".";
    html += "<figure class=\"chart\"><figcaption>" + escapeHtml(title) +
            "</figcaption><div class=\"bars\" role=\"img\" aria-label=\"" + escapeHtml(sentence) +
            "\">";
    for (const auto& [label, value] : rows) {
      const double width = largest > 0 ? value / largest * 100 : 0;
      html += "<div class=\"bar-row\"><span class=\"bar-label\">" + escapeHtml(label) +
              "</span><svg class=\"bar\" viewBox=\"0 0 100 10\" preserveAspectRatio=\"none\" "
              "aria-hidden=\"true\" focusable=\"false\"><rect width=\"" +
              number(width, 2) + "\" height=\"10\"/></svg><span class=\"bar-value\">" +
              number(value, fractional(value)) + "</span></div>";
    }
    html += "</div>";
    table(
        title, {std::string(label_header), std::string(value_header)},
        [&] {
          std::vector<std::vector<std::string>> out;
          for (const auto& [label, value] : rows) {
            std::vector<std::string> row{label, number(value, fractional(value))};
            if (total > 0 && value_header == "Responses") row.push_back(percent(value / total));
            out.push_back(std::move(row));
          }
          return out;
        }(),
        total > 0 && value_header == "Responses");
    html += "</figure>";
  }

  // Cells shaded by their count against the largest: rows down, columns across.
  void heatMap(std::string_view title, const std::vector<std::string>& row_labels,
               const std::vector<std::string>& column_labels,
               const std::vector<std::vector<double>>& counts) {
    double largest = 0;
    for (const auto& r : counts)
      for (double c : r) largest = std::max(largest, c);
    std::string sentence = std::string(title) + ": ";
    for (std::size_t r = 0; r < row_labels.size(); ++r) {
      if (r) sentence += "; ";
      sentence += row_labels[r] + ":";
      for (std::size_t c = 0; c < column_labels.size(); ++c) {
        sentence += " " + column_labels[c] + " " + number(counts[r][c]);
      }
    }
    const std::size_t w = column_labels.size(), h = row_labels.size();
    html += "<figure class=\"chart\"><figcaption>" + escapeHtml(title) +
            "</figcaption><svg class=\"heat\" viewBox=\"0 0 " + std::to_string(w * 10) + " " +
            std::to_string(h * 10) + "\" role=\"img\" aria-label=\"" + escapeHtml(sentence) +
            ".\" focusable=\"false\">";
    for (std::size_t r = 0; r < h; ++r) {
      for (std::size_t c = 0; c < w; ++c) {
        const double share = largest > 0 ? counts[r][c] / largest : 0;
        html += "<rect x=\"" + std::to_string(c * 10) + "\" y=\"" + std::to_string(r * 10) +
                "\" width=\"9.5\" height=\"9.5\" fill-opacity=\"" + number(0.08 + 0.92 * share, 2) +
                "\"/>";
      }
    }
    html += "</svg>";
    std::vector<std::string> header{"Row"};
    header.insert(header.end(), column_labels.begin(), column_labels.end());
    std::vector<std::vector<std::string>> rows;
    for (std::size_t r = 0; r < h; ++r) {
      std::vector<std::string> row{row_labels[r]};
      for (std::size_t c = 0; c < w; ++c) row.push_back(number(counts[r][c]));
      rows.push_back(std::move(row));
    }
    table(title, header, rows, false);
    html += "</figure>";
  }

  // Figures without a chart, as a definition list.
  void figures(const std::vector<std::pair<std::string, std::string>>& items) {
    html += "<dl class=\"figures\">";
    for (const auto& [name, value] : items) {
      html += "<div><dt>" + escapeHtml(name) + "</dt><dd>" + escapeHtml(value) + "</dd></div>";
    }
    html += "</dl>";
  }

 private:
  static int fractional(double v) { return std::floor(v) == v ? 0 : 2; }

  // A scrollable region the keyboard can reach (axe: scrollable-region-focusable).
  void table(std::string_view title, const std::vector<std::string>& header,
             const std::vector<std::vector<std::string>>& rows, bool with_share) {
    const std::string id = nextId();
    html += "<div class=\"table\" tabindex=\"0\" role=\"region\" aria-labelledby=\"" + id +
            "\"><table><caption id=\"" + id + "\">" + escapeHtml(title) +
            " (table)</caption><thead><tr>";
    for (const auto& h : header) html += "<th scope=\"col\">" + escapeHtml(h) + "</th>";
    if (with_share) html += "<th scope=\"col\">Share</th>";
    html += "</tr></thead><tbody>";
    for (const auto& row : rows) {
      html += "<tr>";
      for (std::size_t i = 0; i < row.size(); ++i) {
        html += i == 0 ? "<th scope=\"row\">" + escapeHtml(row[i]) + "</th>"
                       : "<td>" + escapeHtml(row[i]) + "</td>";
      }
      html += "</tr>";
    }
    html += "</tbody></table></div>";
  }

  int ids_ = 0;
};

// Ids and labels of a configuration's list of {id, label} (matrix rows and columns, cards).
std::vector<std::pair<std::string, std::string>> idLabels(const boost::json::object& config,
                                                          std::string_view key) {
  std::vector<std::pair<std::string, std::string>> out;
  const auto* list = at(config, key);
  if (!list || !list->is_array()) return out;
  for (const auto& item : list->get_array()) {
    if (!item.is_object()) continue;
    const auto* id = at(item.get_object(), "id");
    const auto* label = at(item.get_object(), "label");
    if (!id || !id->is_string()) continue;
    out.emplace_back(std::string(id->get_string()), label && label->is_string()
                                                        ? std::string(label->get_string())
                                                        : std::string(id->get_string()));
  }
  return out;
}

std::string labelOf(const std::vector<std::pair<std::string, std::string>>& labels,
                    std::string_view id) {
  for (const auto& [i, label] : labels) {
    if (i == id) return label;
  }
  return std::string(id);
}

// Rows of an object of counts, in its order (options as configured), labels from `labels`.
Rows countRows(const boost::json::object& counts,
               const std::vector<std::pair<std::string, std::string>>& labels = {}) {
  Rows rows;
  for (const auto& [key, value] : counts) rows.emplace_back(labelOf(labels, key), numberOf(&value));
  return rows;
}

void distribution(Page& page, const std::string& title, const boost::json::object& stats) {
  if (const auto* d = at(stats, "distribution"); d && d->is_object()) {
    page.bars(title + ": answers per value", "Value", countRows(d->get_object()));
  }
}

void npsChart(Page& page, const std::string& title, const boost::json::object& stats) {
  page.figures({{"NPS", at(stats, "nps") ? number(numberOf(at(stats, "nps"))) : "—"}});
  page.bars(title + ": promoters, passives and detractors", "Group",
            {{"Promoters (9–10)", numberOf(at(stats, "promoters"))},
             {"Passives (7–8)", numberOf(at(stats, "passives"))},
             {"Detractors (0–6)", numberOf(at(stats, "detractors"))}});
  distribution(page, title, stats);
}

void numberFigures(Page& page, const boost::json::object& stats) {
  std::vector<std::pair<std::string, std::string>> items;
  for (const char* key : {"min", "max", "mean", "median", "average"}) {
    if (const auto* v = at(stats, key)) {
      std::string name(key);
      name[0] = static_cast<char>(name[0] - 'a' + 'A');
      items.emplace_back(name, number(numberOf(v), 2));
    }
  }
  if (!items.empty()) page.figures(items);
}

void textCharts(Page& page, const std::string& title, const boost::json::object& stats) {
  if (const auto* s = at(stats, "sentiment"); s && s->is_object()) {
    page.bars(title + ": sentiment", "Sentiment", countRows(s->get_object()));
  }
  if (const auto* topics = at(stats, "top_topics"); topics && topics->is_array()) {
    Rows rows;
    for (const auto& t : topics->get_array()) {
      if (!t.is_object()) continue;
      const auto* topic = at(t.get_object(), "topic");
      // A topic is words of the answers: one that looks like an address is left out.
      if (!topic || !topic->is_string() ||
          std::string_view(topic->get_string()).find('@') != std::string_view::npos) {
        continue;
      }
      rows.emplace_back(std::string(topic->get_string()), numberOf(at(t.get_object(), "count")));
    }
    if (!rows.empty()) page.bars(title + ": top topics", "Topic", rows);
  }
  if (const auto* a = at(stats, "actionable")) {
    page.figures({{"Actionable answers", number(numberOf(a))}});
  }
}

void matrixChart(Page& page, const std::string& title, const boost::json::object& config,
                 const boost::json::object& stats) {
  const auto* counts = at(stats, "counts");
  if (!counts || !counts->is_object()) return;
  const auto rows = idLabels(config, "rows"), columns = idLabels(config, "columns");
  std::vector<std::string> row_labels, column_labels;
  for (const auto& [_, label] : columns) column_labels.push_back(label);
  std::vector<std::vector<double>> grid;
  for (const auto& [row_id, label] : rows) {
    row_labels.push_back(label);
    std::vector<double> line;
    const auto* per_row = at(counts->get_object(), row_id);
    for (const auto& [column_id, _] : columns) {
      line.push_back(
          per_row && per_row->is_object() ? numberOf(at(per_row->get_object(), column_id)) : 0);
    }
    grid.push_back(std::move(line));
  }
  if (!row_labels.empty() && !column_labels.empty()) {
    page.heatMap(title + ": answers per row and column", row_labels, column_labels, grid);
  }
}

void rankingCharts(Page& page, const std::string& title, const boost::json::object& stats) {
  if (const auto* avg = at(stats, "average_rank"); avg && avg->is_object()) {
    Rows rows;
    for (const auto& [option, rank] : avg->get_object()) {
      if (!rank.is_null()) rows.emplace_back(std::string(option), numberOf(&rank));
    }
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) { return a.second < b.second; });
    page.bars(title + ": average rank (1 is best)", "Option", rows, "Average rank");
  }
  if (const auto* first = at(stats, "first_place"); first && first->is_object()) {
    page.bars(title + ": ranked first", "Option", countRows(first->get_object()));
  }
}

// The question's chart, fitted to what its summary holds.
void questionCharts(Page& page, const lv1::Question& question, const boost::json::object& stats) {
  const std::string title = question.prompt().empty() ? question.field_key() : question.prompt();
  boost::system::error_code ec;
  auto parsed = boost::json::parse(question.configuration_json(), ec);
  const boost::json::object config =
      !ec && parsed.is_object() ? parsed.get_object() : boost::json::object();
  const std::string& type = question.response_type();
  if (at(stats, "nps")) return npsChart(page, title, stats);
  if (type == "matrix") return matrixChart(page, title, config, stats);
  if (type == "ranking") return rankingCharts(page, title, stats);
  if (at(stats, "sentiment") || at(stats, "top_topics")) return textCharts(page, title, stats);
  if (type == "hidden_field") return;  // values a form was given, not answers to show
  if (const auto* counts = at(stats, "counts"); counts && counts->is_object()) {
    return page.bars(title + ": answers per option", "Option",
                     countRows(counts->get_object(), idLabels(config, "cards")));
  }
  if (at(stats, "yes") || at(stats, "no")) {
    return page.bars(title, "Answer",
                     {{"Yes", numberOf(at(stats, "yes"))}, {"No", numberOf(at(stats, "no"))}});
  }
  if (const auto* accepted = at(stats, "accepted")) {
    return page.figures({{"Accepted", number(numberOf(accepted))}});
  }
  if (at(stats, "csat")) page.figures({{"CSAT", percent(numberOf(at(stats, "csat")))}});
  if (const auto* low = at(stats, "low"); low && low->is_object()) {
    numberFigures(page, low->get_object());
    if (const auto* high = at(stats, "high"); high && high->is_object()) {
      numberFigures(page, high->get_object());
    }
    return;
  }
  numberFigures(page, stats);
  distribution(page, title, stats);
}

// The latest answers' words, as the report's maker allowed (include_text).
void quotes(Page& page, std::string_view question_uuid,
            const google::protobuf::RepeatedPtrField<feedback::responses::v1::Quote>& all) {
  std::string items;
  for (const auto& q : all) {
    if (q.question_uuid() == question_uuid) {
      items += "<li><blockquote>" + escapeHtml(q.text()) + "</blockquote></li>";
    }
  }
  if (items.empty()) return;
  page.html += "<h3>Latest answers</h3><ul class=\"quotes\">" + items + "</ul>";
}

const lv1::Question* findQuestion(const lv1::Link& link, std::string_view uuid) {
  for (const auto& q : link.questions()) {
    if (q.uuid() == uuid) return &q;
  }
  return nullptr;
}

}  // namespace

std::string renderReportPage(const lv1::Link& link,
                             const feedback::responses::v1::GetLinkSummaryResponse& answer) {
  const auto& daily = answer.daily();
  boost::system::error_code ec;
  auto parsed = boost::json::parse(answer.summary_json(), ec);
  const boost::json::object summary =
      !ec && parsed.is_object() ? parsed.get_object() : boost::json::object();
  Page page;
  const std::string name = escapeHtml(link.name());
  page.html =
      "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
      "content=\"width=device-width, initial-scale=1\"><meta name=\"robots\" content=\"noindex\">"
      "<title>" +
      name + ": results</title><link rel=\"stylesheet\" href=\"" + versioned("/static/report.css") +
      "\"></head><body><main><header><p class=\"kicker\">"
      "Results</p><h1>" +
      name + "</h1>";
  if (link.settings().has_description() && !link.settings().description().empty()) {
    page.html += "<p class=\"description\">" + escapeHtml(link.settings().description()) + "</p>";
  }
  page.html += "</header><section aria-labelledby=\"overview\"><h2 id=\"overview\">Overview</h2>";
  page.figures({{"Responses", number(numberOf(at(summary, "response_count")))},
                {"Started", number(numberOf(at(summary, "started_count")))},
                {"Completion", percent(numberOf(at(summary, "completion_rate")))}});
  Rows days;
  for (const auto& d : daily) days.emplace_back(d.day(), static_cast<double>(d.completed()));
  if (!days.empty()) page.bars("Responses per day", "Day", days);
  page.html += "</section>";
  if (const auto* questions = at(summary, "questions"); questions && questions->is_array()) {
    for (const auto& item : questions->get_array()) {
      if (!item.is_object()) continue;
      const auto& q = item.get_object();
      const auto* uuid = at(q, "question_uuid");
      const auto* question =
          uuid && uuid->is_string() ? findQuestion(link, uuid->get_string()) : nullptr;
      if (!question || question->response_type() == "help_block") continue;
      const std::string id = page.nextId();
      const std::string title =
          question->prompt().empty() ? question->field_key() : question->prompt();
      page.html += "<section class=\"question\" aria-labelledby=\"" + id + "\"><h2 id=\"" + id +
                   "\">" + escapeHtml(title) + "</h2><p class=\"answered\">" +
                   number(numberOf(at(q, "answered"))) + " answered</p>";
      const auto* stats = at(q, "stats");
      if (stats && stats->is_object()) questionCharts(page, *question, stats->get_object());
      quotes(page, question->uuid(), answer.quotes());
      page.html += "</section>";
    }
  }
  page.html += "</main></body></html>";
  return std::move(page.html);
}

}  // namespace feedback::gateway
