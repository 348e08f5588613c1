// End to end: one link holding a question of each of the 32 types, filled in Debian's Chromium
// by keyboard alone (Tab to move, typing, arrows, Space and Enter), with conditions in groups,
// a recalled prompt and help block, a hidden_field filled from the page's address and a
// visible question prefilled from it; submitted, and read back through the API with every
// value as sent (normalised where docs/api.md "Question types" says); axe-core finds no
// serious or critical violation; screenshots at 360 and 1280 px in .run/artifacts/.
//
// node tests/e2e/question_types_page.js   (STACK_DIR: the stack, default .run)
"use strict";
const assert = require("assert");
const fs = require("fs");
const path = require("path");
const { api, artifacts, gatewayPort, launchBrowser, runner, seriousViolations, workspace } = require("./page_support");

const root = path.resolve(__dirname, "..", "..");

const ROWS = [{ id: "speed", label: "Speed" }, { id: "price", label: "Price" }];
const COLUMNS = [{ id: "bad", label: "Bad" }, { id: "ok", label: "OK" }, { id: "good", label: "Good" }];
const CARDS = [
  { id: "c1", label: "Cat", media_url: "https://example.com/cat.png", media_type: "image" },
  { id: "c2", label: "Dog", media_url: "https://example.com/dog.png", media_type: "image" },
];
const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");
const leaf = (field, operator, value) => ({ show_if: "field_value", field, operator, ...(value === undefined ? {} : { value }) });

function questions() {
  return [
    { field_key: "src", type: "hidden_field", prompt: "Source", configuration: { default_value: "direct" } },
    { field_key: "name", type: "text", prompt: "Your name", required: true },
    { field_key: "voice", type: "voice", prompt: "Tell us about your visit" },
    { field_key: "vtf", type: "voice_text_fallback", prompt: "Voice or text" },
    { field_key: "color", type: "multiple_choice", prompt: "Pick a colour", configuration: { options: ["red", "green", "blue"] } },
    { field_key: "n", type: "number", prompt: "How many", configuration: { min: 0, max: 10 } },
    { field_key: "stars", type: "rating", prompt: "Rate us" },
    { field_key: "card", type: "image_choice", prompt: "Choose a card", configuration: { cards: CARDS } },
    { field_key: "email", type: "email", prompt: "Your email" },
    { field_key: "day", type: "date", prompt: "When did it happen" },
    { field_key: "yn", type: "yes_no", prompt: "Did we help" },
    { field_key: "doc", type: "file_upload", prompt: "Attach a file", configuration: { allowed_types: ["application/pdf"] } },
    { field_key: "total", type: "calculated", prompt: "Total", configuration: { formula: "n * 2" } },
    { field_key: "help", type: "help_block", prompt: "About this survey", configuration: { content: "Thanks, {{name}}, for helping." } },
    { field_key: "phone", type: "phone_number", prompt: "Your phone", configuration: { default_country: "US" } },
    { field_key: "site", type: "url", prompt: "Your website" },
    { field_key: "plan", type: "dropdown", prompt: "Your plan", configuration: { options: ["free", "pro", "team"] } },
    { field_key: "nps", type: "nps", prompt: "Would you recommend us" },
    { field_key: "opinion", type: "opinion_scale", prompt: "Your opinion" },
    { field_key: "csat", type: "csat", prompt: "How satisfied are you" },
    { field_key: "effort", type: "ces", prompt: "How easy was it" },
    { field_key: "level", type: "slider", prompt: "How much", configuration: { min: 0, max: 10 } },
    { field_key: "grid", type: "matrix", prompt: "Rate each", configuration: { rows: ROWS, columns: COLUMNS } },
    { field_key: "rank", type: "ranking", prompt: "Rank these", configuration: { options: ["speed", "price", "support"] } },
    { field_key: "contact", type: "contact_info", prompt: "Your details" },
    { field_key: "addr", type: "address", prompt: "Your address" },
    { field_key: "terms", type: "consent", prompt: "Terms", configuration: { text: "I agree to the terms.", link_url: "https://example.com/terms" } },
    { field_key: "sig", type: "signature", prompt: "Sign here" },
    { field_key: "slot", type: "time", prompt: "Best time to call" },
    { field_key: "when", type: "datetime", prompt: "When exactly" },
    { field_key: "trip", type: "date_range", prompt: "Your trip" },
    // Shown when n >= 5 and (green, or an email at example.com): both hold below.
    { field_key: "story", type: "long_text", prompt: "Tell us more, {{name}} ({{contact.first_name}}, {{phone}})",
      condition: { all: [leaf("n", "greater_than_or_equal", 5), { any: [leaf("color", "equals", "green"), leaf("contact.email", "ends_with", "@example.com")] }] } },
    // Hidden: the hidden_field came from the address, not its default.
    { field_key: "gone", type: "text", prompt: "Never shown", condition: { any: [leaf("src", "equals", "direct"), leaf("n", "less_than", 0)] } },
  ];
}

// Presses Tab until the focus is inside `selector` (at most `limit` presses; none when it is).
async function tabInto(page, selector, limit = 12) {
  const inside = () => page.evaluate((s) => Boolean(document.activeElement?.closest(s)), selector);
  for (let i = 0; i < limit; i++) {
    if (await inside()) return;
    await page.keyboard.press("Tab");
  }
  if (await inside()) return;
  const at = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120));
  throw new Error(`Tab never reached ${selector}; the focus is on ${at}`);
}

async function fillByKeyboard(page) {
  const kb = page.keyboard;
  await tabInto(page, "#q-name");
  await kb.type("Ada");
  // The first answer starts the response; the prefilled phone the server refuses is cleared.
  await page.waitForFunction(() => document.querySelector("#input-phone").value === "");
  await tabInto(page, "#q-voice");
  await tabInto(page, "#q-voice .link"); // "Type instead"
  await kb.press("Enter");
  await kb.type("Spoken by keys");
  await tabInto(page, "#q-vtf .link");
  await kb.press("Enter");
  await kb.type("Typed instead");
  await tabInto(page, "#q-color");
  await kb.press("ArrowRight"); // green
  await tabInto(page, "#q-n");
  await kb.type("7");
  await tabInto(page, "#q-stars");
  for (let i = 0; i < 3; i++) await kb.press("ArrowRight"); // 4 stars
  await tabInto(page, "#q-card");
  await kb.press("ArrowRight"); // Dog
  await tabInto(page, "#q-email");
  await kb.type("dee@example.com");
  await tabInto(page, "#q-day");
  await kb.type("02292024");
  await tabInto(page, "#q-yn");
  await kb.press("ArrowRight"); // No
  await tabInto(page, "#q-doc");
  // Headless Chromium now and then drops the chooser a key opens: the key is pressed again.
  let chooser = null;
  for (let attempt = 0; attempt < 3 && !chooser; attempt++) {
    [chooser] = await Promise.all([page.waitForEvent("filechooser", { timeout: 5000 }).catch(() => null), kb.press("Space")]);
  }
  assert.ok(chooser, "Space on the file input opens the file chooser");
  await chooser.setFiles({ name: "invoice.pdf", mimeType: "application/pdf", buffer: PDF });
  await page.locator("#q-doc .saved").filter({ hasText: "Uploaded invoice.pdf" }).waitFor();
  await tabInto(page, "#q-phone");
  await kb.type("(415) 555-0123");
  await tabInto(page, "#q-site");
  await kb.type("https://example.com/about#team");
  await tabInto(page, "#q-plan"); // prefilled "team" from the address: left as it is
  await tabInto(page, "#q-nps");
  for (let i = 0; i < 9; i++) await kb.press("ArrowRight"); // 9
  await tabInto(page, "#q-opinion");
  await kb.press("ArrowRight"); // 2
  await tabInto(page, "#q-csat");
  for (let i = 0; i < 3; i++) await kb.press("ArrowRight"); // 4
  await tabInto(page, "#q-effort");
  await kb.press("ArrowRight"); // 2
  await tabInto(page, "#q-level");
  for (let i = 0; i < 3; i++) await kb.press("ArrowRight"); // 3
  await tabInto(page, "#q-grid");
  await kb.press("ArrowRight"); // speed: ok
  await kb.press("Tab");
  await kb.press("ArrowRight");
  await kb.press("ArrowRight"); // price: good
  await tabInto(page, "#q-rank .down"); // "Move speed down"
  await kb.press("Enter"); // price, speed, support
  await tabInto(page, "#q-contact");
  for (const text of ["Ada", "Lovelace", "ada@example.com", "+44 7400 123456", "Analytical Engines"]) {
    await kb.type(text);
    await kb.press("Tab");
  }
  await page.keyboard.press("Shift+Tab");
  await tabInto(page, "#q-addr");
  for (const text of ["10 Downing Street", "", "London", "", "SW1A 2AA", "gb"]) {
    if (text) await kb.type(text);
    await kb.press("Tab");
  }
  await page.keyboard.press("Shift+Tab");
  await tabInto(page, "#q-terms");
  await kb.press("Space");
  await tabInto(page, "#q-sig input");
  await kb.type("Ada Lovelace");
  await kb.press("Tab");
  await page.locator("#q-sig .saved").filter({ hasText: "Signature saved" }).waitFor();
  await tabInto(page, "#q-slot");
  await kb.type("0930A");
  await tabInto(page, "#q-when");
  await kb.type("03102024");
  await kb.press("ArrowRight"); // from the year to the hour
  await kb.type("1230P");
  await tabInto(page, "#q-trip");
  await kb.type("07012024");
  await tabInto(page, "#input-trip-end");
  await kb.type("07142024");
  await tabInto(page, "#q-story");
  await kb.type("It started on a rainy Tuesday.");
}

async function main() {
  fs.mkdirSync(artifacts, { recursive: true });
  const ws = workspace();
  const origin = `http://${ws.host}:${gatewayPort}`;
  const created = await api("POST", "links/", ws.api_key, {
    name: "All 32 types", slug: "all-types", questions: questions(),
    settings: { description: "Hello, reader from {{src}}.", thankYouMessage: "Thanks for every answer." },
  });
  assert.strictEqual(created.status, 201, JSON.stringify(created.body));
  assert.strictEqual(new Set(questions().map((q) => q.type)).size, 32, "one question of each type");
  const link = created.body;
  // plan: prefilled. n: out of its range, not prefilled. phone: refused by the server when the
  // response starts, and then cleared.
  const address = `${origin}/i/all-types?src=newsletter&plan=team&n=500&phone=5555`;
  const browser = await launchBrowser();
  const tests = runner();
  try {
    await tests.run("all 32 types by keyboard, groups, recall, hidden field and prefill from the address", async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: "Europe/Berlin", locale: "en-US" });
      const page = await context.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(address);
      await page.locator("#questions").waitFor();
      assert.strictEqual(await page.locator(".intro .description").textContent(), "Hello, reader from newsletter.");
      assert.strictEqual(await page.locator("#q-src").count(), 0, "a hidden_field is never shown");
      assert.strictEqual(await page.locator("#q-plan select").inputValue(), "2", "plan prefilled with team");
      assert.strictEqual(await page.locator("#q-story").isHidden(), true, "story hidden before n and the colour");
      assert.strictEqual(await page.locator("#input-n").inputValue(), "", "n=500 is out of range: not prefilled");
      assert.strictEqual(await page.locator("#input-phone").inputValue(), "5555", "phone prefilled");
      await fillByKeyboard(page);
      // Recall shows the phone as stored (E.164), as the server's question_text does.
      await page.waitForFunction(() => document.querySelector("#q-story .prompt").textContent === "Tell us more, Ada (Ada, +14155550123)");
      assert.ok((await page.locator("#q-help").textContent()).includes("Thanks, Ada, for helping."));
      assert.strictEqual(await page.locator("#output-total").textContent(), "14");
      assert.strictEqual(await page.locator("#q-gone").isHidden(), true);
      await page.screenshot({ path: path.join(artifacts, "all-types-1280.png"), fullPage: true });
      await page.keyboard.press("Tab"); // "Send my answers"
      assert.strictEqual(await page.evaluate(() => document.activeElement.textContent), "Send my answers");
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Thanks for every answer." }).waitFor();
      assert.deepStrictEqual(errors, [], "no script errors");

      const list = await api("GET", `links/${link.uuid}/responses/`, ws.api_key);
      assert.strictEqual(list.body.count, 1, JSON.stringify(list.body));
      const answers = Object.fromEntries(list.body.results[0].answers.map((a) => [a.field_key, a]));
      const expected = {
        src: "newsletter", name: "Ada", voice: "Spoken by keys", vtf: "Typed instead", color: "green", n: 7,
        stars: 4, card: "c2", email: "dee@example.com", day: "2024-02-29", yn: false, total: 14,
        phone: "+14155550123", site: "https://example.com/about#team", plan: "team", nps: 9, opinion: 2, csat: 4,
        effort: 2, level: 3, grid: { speed: "ok", price: "good" }, rank: ["price", "speed", "support"],
        contact: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: "+447400123456", company: "Analytical Engines" },
        addr: { line1: "10 Downing Street", city: "London", postal_code: "SW1A 2AA", country: "GB" },
        terms: true, slot: "09:30", when: "2024-03-10T11:30:00.000000Z", trip: { start: "2024-07-01", end: "2024-07-14" },
        story: "It started on a rainy Tuesday.",
      };
      for (const [key, value] of Object.entries(expected)) {
        assert.deepStrictEqual(answers[key]?.value, value, `${key}: ${JSON.stringify(answers[key]?.value)}`);
      }
      assert.strictEqual(answers.doc.value.file_name, "invoice.pdf");
      assert.strictEqual(answers.sig.value.content_type, "image/png");
      assert.ok(answers.sig.value.size_bytes > 0);
      assert.strictEqual(answers.story.question_text, "Tell us more, Ada (Ada, +14155550123)");
      assert.strictEqual(answers.gone, undefined);
      assert.deepStrictEqual(answers.nps.rating_details, { value: 9, max_value: 10, scale_type: "nps" });
      await context.close();
    });

    await tests.run("the page's contact and address parts are the question-type table's", async () => {
      const { PARTS } = await import(path.join(root, "services/gateway/page/assets/parts.js"));
      const { status, body } = await api("GET", "openapi.json", ws.api_key);
      assert.strictEqual(status, 200);
      for (const [type, schema] of [["contact_info", "ContactInfoConfiguration"], ["address", "AddressConfiguration"]]) {
        const parts = body.components.schemas[schema].properties.fields.properties;
        const fromTable = Object.entries(parts).map(([name, p]) => [name, p.properties.required.default]);
        assert.deepStrictEqual(PARTS[type].map(([name, , , , required]) => [name, required]), fromTable, type);
      }
    });

    await tests.run("all 32 types: axe-core finds no serious or critical violation; 360 px wide", async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(address);
      await page.locator("#questions").waitFor();
      assert.deepStrictEqual(await seriousViolations(page), []);
      await context.close();
      const narrow = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      const small = await narrow.newPage();
      await small.goto(address);
      await small.locator("#questions").waitFor();
      const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
      // Every control sits inside its question's box, under its prompt (a floated legend once
      // pushed grouped controls beside it, out of the box).
      const outside = await small.evaluate(() => [...document.querySelectorAll(".question:not([hidden])")].flatMap((q) => {
        const box = q.getBoundingClientRect();
        return [...q.querySelectorAll("label, select, textarea, button, table, canvas, input:not([type=radio]):not([type=checkbox])")]
          .filter((c) => c.getClientRects().length && !c.closest(".matrix-scroll"))
          .filter((c) => c.getBoundingClientRect().right > box.right + 1).map((c) => `${q.id} ${c.tagName} ${c.textContent.slice(0, 20)}`);
      }));
      assert.deepStrictEqual(outside, [], "controls outside their question");
      await small.screenshot({ path: path.join(artifacts, "all-types-360.png"), fullPage: true });
      await narrow.close();
    });
  } finally {
    await browser.close();
  }
  process.exit(tests.summary("question types page") ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
