// End to end: the shared report of a link holding a question of each of the 32 types, in
// Debian's Chromium (docs/api.md "Shared reports"): every chart has its text alternative and a
// table the keyboard reaches, axe-core finds no serious or critical violation, the page fits 360
// px with no horizontal scrolling, no respondent's email shows; screenshots at 360 and 1280 px in
// .run/artifacts/. And the link's XLSX export read with exceljs holds, cell by cell, what its
// CSV export holds (tests/integration/test_exports.py checks the CSV against the records).
//
// node tests/e2e/report_page.js   (STACK_DIR: the stack, default .run)
"use strict";
const assert = require("assert");
const fs = require("fs");
const http = require("http");
const path = require("path");
const { api, artifacts, gatewayPort, launchBrowser, runner, seriousViolations, workspace } = require("./page_support");

const root = path.resolve(__dirname, "..", "..");
const ExcelJS = require(path.join(root, ".tools", "node_modules", "exceljs"));
const linkBody = JSON.parse(fs.readFileSync(path.join(root, "tests", "bench", "link_32_types.json"), "utf8"));
const answers = JSON.parse(fs.readFileSync(path.join(root, "tests", "bench", "answers_32_types.json"), "utf8"));

function request(method, pathname, headers, body) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const req = http.request({ host: "127.0.0.1", port: gatewayPort, method, path: pathname,
      headers: { ...headers, ...(data ? { "Content-Type": "application/json" } : {}) } }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    if (data) req.write(data);
    req.end();
  });
}

// RFC 4180 rows of a CSV text.
function csvRows(text) {
  const rows = [];
  let row = [], field = "", quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { row.push(field); field = ""; } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field); rows.push(row); row = []; field = ""; i++;
    } else field += c;
  }
  return rows;
}

// What a CSV cell holds for an XLSX cell's value: numbers as written, dates as section 1's
// timestamps, text as it is (CSV alone guards formulas with a quote).
function asCsv(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && "richText" in value) return value.richText.map((r) => r.text).join("");
  return String(value);
}

async function main() {
  fs.mkdirSync(artifacts, { recursive: true });
  const ws = workspace();
  const origin = `http://${ws.host}:${gatewayPort}`;
  const created = await api("POST", "links/", ws.api_key, { ...linkBody, name: "All types report", slug: "all-types-report",
    settings: { description: "What 32 kinds of answers look like" } });
  assert.strictEqual(created.status, 201, JSON.stringify(created.body));
  const link = created.body;
  const variants = [{}, { color: "red", nps: 3, yn: false, stars: 2, rank: ["price", "speed", "support"] },
    { color: "blue", nps: 10, opinion: 1, story: "=2+3 slow pages, said the user" }];
  for (const [i, change] of variants.entries()) {
    const r = await request("POST", "/i/all-types-report/submit/", { Host: ws.host },
      { respondent_email: `person${i}@example.com`, answers: { ...answers.answers, ...change } });
    assert.strictEqual(r.status, 201, r.body.toString());
  }
  const report = await api("POST", `links/${link.uuid}/reports/`, ws.api_key, {});
  assert.strictEqual(report.status, 201, JSON.stringify(report.body));
  const address = report.body.url.replace(/^https:\/\/[^/]+/, origin);
  const browser = await launchBrowser();
  const tests = runner();
  try {
    await tests.run("every chart has its text alternative and a table the keyboard reaches", async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const errors = [];
      // The browser's own favicon request is not the page's.
      page.on("response", (r) => r.status() >= 400 && !r.url().endsWith("/favicon.ico") && errors.push(`${r.status()} ${r.url()}`));
      page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && errors.push(m.text()));
      await page.goto(address);
      assert.strictEqual(await page.locator("h1").textContent(), "All types report");
      const html = await page.content();
      assert.ok(!html.includes("@example.com"), "a respondent's email on the page");
      const charts = page.locator("figure.chart");
      const count = await charts.count();
      // Those of the types summed up in charts (docs/api.md "Summaries"): the day, then 21.
      assert.strictEqual(count, 22, `charts: ${count}`);
      for (let i = 0; i < count; i++) {
        const chart = charts.nth(i);
        const alternative = chart.locator("[role=img]");
        assert.strictEqual(await alternative.count(), 1, `chart ${i}: one image`);
        const label = await alternative.getAttribute("aria-label");
        assert.ok(label && /\d/.test(label), `chart ${i}: its text alternative says its numbers: ${label}`);
        assert.strictEqual(await chart.locator(".table[tabindex='0'] table caption").count(), 1, `chart ${i}: its table`);
      }
      // Tab through the page: every table's region takes the focus, in order.
      const regions = await page.locator(".table[tabindex='0']").count();
      const reached = new Set();
      for (let i = 0; i < regions + 5 && reached.size < regions; i++) {
        await page.keyboard.press("Tab");
        const id = await page.evaluate(() => document.activeElement?.getAttribute("aria-labelledby"));
        if (id) reached.add(id);
      }
      assert.strictEqual(reached.size, regions, `the keyboard reached ${reached.size} of ${regions} tables`);
      for (const heading of ["Recommend us?", "Rate each", "Rank", "Why …, …?"]) {
        assert.ok(html.includes(heading), `the question ${heading}`);
      }
      assert.ok(html.includes("Promoters (9–10)") && html.includes("class=\"heat\""), "NPS groups and the matrix's heat map");
      assert.deepStrictEqual(errors, [], "failed loads or console errors (the page's policy refused something?)");
      await page.screenshot({ path: path.join(artifacts, "report-1280.png"), fullPage: true });
      await context.close();
    });

    await tests.run("axe-core finds no serious or critical violation; 360 px wide", async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(address);
      assert.deepStrictEqual(await seriousViolations(page), []);
      await context.close();
      const narrow = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      const small = await narrow.newPage();
      await small.goto(address);
      const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
      await small.screenshot({ path: path.join(artifacts, "report-360.png"), fullPage: true });
      await narrow.close();
    });

    await tests.run("the XLSX export, read with exceljs, holds the CSV export's cells", async () => {
      const auth = { Authorization: `Bearer ${ws.api_key}`, Accept: "*/*" };
      const csv = await request("GET", `/v1/links/${link.uuid}/responses/export/?format=csv`, auth);
      const xlsx = await request("GET", `/v1/links/${link.uuid}/responses/export/?format=xlsx`, auth);
      assert.strictEqual(csv.status, 200);
      assert.strictEqual(xlsx.status, 200);
      const rows = csvRows(csv.body.toString("utf8").replace(/^\uFEFF/, ""));
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(xlsx.body);
      const sheet = book.getWorksheet("Responses");
      assert.ok(sheet, "a worksheet named Responses");
      assert.strictEqual(sheet.rowCount, rows.length, "as many rows as the CSV");
      const header = rows[0];
      for (let r = 0; r < rows.length; r++) {
        for (let c = 0; c < header.length; c++) {
          const cell = sheet.getRow(r + 1).getCell(c + 1);
          assert.ok(!cell.formula, `${header[c]} row ${r}: a formula`);
          let want = rows[r][c];
          // CSV's formula guard is CSV's alone.
          if (/^'[=+\-@\t\r]/.test(want)) want = want.slice(1);
          const got = asCsv(cell.value);
          if (typeof cell.value === "number") {
            assert.strictEqual(cell.value, Number(want), `${header[c]} row ${r}`);
          } else if (cell.value instanceof Date) {
            // A date cell holds milliseconds; the CSV's timestamp, microseconds.
            const apart = Math.abs(cell.value.getTime() - Date.parse(want.replace(/(\.\d{3})\d*Z$/, "$1Z")));
            assert.ok(apart <= 1, `${header[c]} row ${r}: a date cell ${cell.value.toISOString()} for ${want}`);
          } else {
            assert.strictEqual(got, want, `${header[c]} row ${r}`);
          }
        }
      }
    });
  } finally {
    await browser.close();
  }
  process.exit(tests.summary("report page") ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
