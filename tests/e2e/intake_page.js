// End to end: the intake page in Debian's Chromium, driven by playwright-core (both installed
// by scripts/setup), against a running stack. It fills every question type (a spoken answer
// through a fake microphone playing a WAV made by flite, with live transcription), checks
// conditions and calculated values as they change, submits, and reads the response through
// the API; completes a form with the keyboard alone; scans the page with axe-core; and saves
// screenshots at 360 and 1280 px wide in .run/artifacts/.
//
// node tests/e2e/intake_page.js   (STACK_DIR: the stack, default .run)
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const assert = require("assert");
const { execFileSync } = require("child_process");

const { api, artifacts, gatewayPort, launchBrowser, runner, seriousViolations, workspace } = require("./page_support");

const SPOKEN = "the delivery was late but the support team was wonderful";

// The fake microphone plays this file in a loop, from wherever it happens to be when the
// recording starts: silence at both ends keeps the sentence whole across the loop's seam.
const SILENCE_MS = 700;
let fakeAudioFile;  // what spokenWav made for this run's browser

function spokenWav(dir) {
  const raw = path.join(dir, "spoken-raw.wav");
  const file = path.join(dir, "spoken.wav");
  execFileSync("flite", ["-voice", "slt", "-t", SPOKEN, "-o", raw]);
  execFileSync("ffmpeg", ["-loglevel", "error", "-y", "-i", raw, "-af",
    `adelay=${SILENCE_MS},apad=pad_dur=${SILENCE_MS / 1000}`, "-ar", "16000", "-ac", "1", "-c:a", "pcm_s16le", file]);
  fakeAudioFile = file;
  return file;
}

// How long one loop of the fake microphone's file lasts (16 kHz, 16-bit mono after its header).
function loopMillis(file) {
  return Math.ceil(((fs.statSync(file).size - 44) / (16000 * 2)) * 1000);
}

const CARDS = [
  { id: "c1", label: "Cat", media_url: "https://example.com/cat.png", media_type: "image" },
  { id: "c2", label: "Dog", media_url: "https://example.com/dog.png", media_type: "image" },
];

function everyType() {
  return [
    { prompt: "Tell us about your visit", type: "voice", field_key: "voice_q", configuration: { max_duration: 60 } },
    { prompt: "Voice or text", type: "voice_text_fallback", field_key: "vtf_q", configuration: { max_duration: 60, max_characters: 500 } },
    { prompt: "Any comments", type: "text", field_key: "text_q", required: true },
    { prompt: "Pick a colour", type: "multiple_choice", field_key: "mc_q", configuration: { options: ["red", "green", "blue"] } },
    { prompt: "Why green?", type: "text", field_key: "why_green", condition: { show_if: "field_value", field: "mc_q", operator: "equals", value: "green" } },
    { prompt: "Toppings", type: "multiple_choice", field_key: "multi_q", configuration: { options: ["cheese", "olives"], allow_multiple: true } },
    { prompt: "How many", type: "number", field_key: "num_q", configuration: { min: 0, max: 10, step: 1 } },
    { prompt: "Rate us", type: "rating", field_key: "stars_q", configuration: { scale_type: "stars", max_value: 5 } },
    { prompt: "How do you feel", type: "rating", field_key: "emoji_q", configuration: { scale_type: "emojis", max_value: 5 } },
    { prompt: "Would you recommend us", type: "rating", field_key: "nps_q", configuration: { scale_type: "nps" } },
    { prompt: "Pick a number", type: "rating", field_key: "numbers_q", configuration: { scale_type: "numbers", max_value: 3 } },
    { prompt: "Choose a card", type: "image_choice", field_key: "card_q", configuration: { cards: CARDS } },
    { prompt: "Your email", type: "email", field_key: "email_q" },
    { prompt: "When did it happen", type: "date", field_key: "date_q" },
    { prompt: "Did we help", type: "yes_no", field_key: "yn_q" },
    { prompt: "Attach a file", type: "file_upload", field_key: "file_q", configuration: { allowed_types: ["application/pdf"], max_size_mb: 5 } },
    { prompt: "Total", type: "calculated", field_key: "calc_q", configuration: { formula: "num_q * 2" } },
    { prompt: "About this survey", type: "help_block", field_key: "help_q", configuration: { content: "Thanks for helping" } },
  ];
}

const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");

async function fillEveryType(page, base) {
  const q = (key) => page.locator(`#q-${key}`);
  // A spoken answer through the fake microphone, transcribed live.
  await q("voice_q").getByRole("button", { name: "Record your answer" }).click();
  await page.waitForFunction(() => {
    const live = document.querySelector("#live-voice_q");
    return live && /\b(delivery|support|late|team)\b/.test(live.textContent);
  }, null, { timeout: 20000 });
  const partial = await page.locator("#live-voice_q").textContent();
  // One whole loop more: the stored recording holds the sentence from silence to silence.
  await page.waitForTimeout(loopMillis(fakeAudioFile) + 500);
  await q("voice_q").getByRole("button", { name: "Stop recording" }).click();
  await q("voice_q").locator(".saved").filter({ hasText: "Recording saved" }).waitFor({ timeout: 20000 });
  await q("vtf_q").getByRole("button", { name: "Type instead" }).click();
  await q("vtf_q").locator("textarea").fill("Typed instead of spoken");
  await q("text_q").locator("textarea").fill("Great service overall");
  // The condition: shown for green only, as the server decides. What shows is numbered 1, 2,
  // 3 as the respondent sees it, renumbered as conditions change.
  const numbers = () => page.$$eval("#questions .question:not([hidden]) .number", (spans) => spans.map((s) => s.textContent));
  const counted = (n) => [...Array.from({ length: n }, (_, i) => String(i + 1)), "i"];
  assert.strictEqual(await q("why_green").isHidden(), true, "why_green hidden before any colour");
  assert.deepStrictEqual(await numbers(), counted(everyType().length - 2), "numbers with why_green hidden");
  await q("mc_q").getByText("green", { exact: true }).click();
  await q("why_green").waitFor({ state: "visible" });
  assert.deepStrictEqual(await numbers(), counted(everyType().length - 1), "numbers with why_green shown");
  assert.strictEqual(await q("why_green").locator(".number").textContent(), "5");
  await q("mc_q").getByText("red", { exact: true }).click();
  await q("why_green").waitFor({ state: "hidden" });
  await q("mc_q").getByText("green", { exact: true }).click();
  await q("why_green").locator("textarea").fill("It is calm");
  await q("multi_q").getByText("cheese").click();
  await q("multi_q").getByText("olives").click();
  await q("num_q").locator("input").fill("4");
  await page.waitForFunction(() => document.querySelector("#output-calc_q")?.textContent === "8");
  await q("stars_q").locator("label", { hasText: "4 stars" }).click();
  await q("emoji_q").locator("label", { hasText: "5 of 5" }).click();
  await q("nps_q").locator("label", { hasText: /^9$/ }).click();
  await q("numbers_q").locator("label", { hasText: /^2$/ }).click();
  await q("card_q").getByText("Dog").click();
  await q("email_q").locator("input").fill("dee@example.com");
  await q("date_q").locator("input").fill("2024-02-29");
  await q("yn_q").getByText("No", { exact: true }).click();
  await q("file_q").locator("input[type=file]").setInputFiles({ name: "invoice.pdf", mimeType: "application/pdf", buffer: PDF });
  await q("file_q").locator(".saved").filter({ hasText: "Uploaded invoice.pdf" }).waitFor();
  assert.ok((await q("help_q").textContent()).includes("Thanks for helping"));
  return partial;
}

async function check(condition, message) {
  if (!condition) throw new Error(message);
}

async function main() {
  fs.mkdirSync(artifacts, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "intake-e2e-"));
  const ws = workspace();
  const origin = `http://${ws.host}:${gatewayPort}`;
  const created = await api("POST", "links/", ws.api_key, {
    name: "Every type", slug: "every", questions: everyType(),
    settings: { description: "A form with every question type.", thankYouMessage: "Thanks, we read every answer.", live_transcription: true, tts_enabled: true },
  });
  assert.strictEqual(created.status, 201, JSON.stringify(created.body));
  const link = created.body;

  const browser = await launchBrowser(["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
    `--use-file-for-fake-audio-capture=${spokenWav(tmp)}`, "--autoplay-policy=no-user-gesture-required"]);
  const tests = runner();
  const run = tests.run;
  try {
    await run("every question type, conditions, voice with live transcription, submit", async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.grantPermissions(["microphone"], { origin });
      const page = await context.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      // Cards' images are on example.com, which this machine cannot reach.
      page.on("console", (m) => {
        if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
      });
      await page.goto(`${origin}/i/every`);
      await check((await page.title()) === "Every type", "title");
      await page.locator("#questions").waitFor();
      const partial = await fillEveryType(page, origin).catch((e) => {
        throw new Error(`${e.message}\n  page errors: ${errors.join(" | ")}`);
      });
      console.log(`  live partial transcript: ${JSON.stringify(partial)}`);
      await page.screenshot({ path: path.join(artifacts, "intake-1280.png"), fullPage: true });
      await page.getByRole("button", { name: "Send my answers" }).click();
      await page.getByRole("heading", { name: "Thanks, we read every answer." }).waitFor();
      await page.screenshot({ path: path.join(artifacts, "intake-1280-thanks.png") });
      assert.deepStrictEqual(errors, [], "no script errors");
      const list = await api("GET", `links/${link.uuid}/responses/`, ws.api_key);
      assert.strictEqual(list.body.count, 1, JSON.stringify(list.body));
      const answers = Object.fromEntries(list.body.results[0].answers.map((a) => [a.field_key, a]));
      const expected = { vtf_q: "Typed instead of spoken", text_q: "Great service overall", mc_q: "green", why_green: "It is calm", multi_q: ["cheese", "olives"], num_q: 4, stars_q: 4, emoji_q: 5, nps_q: 9, numbers_q: 2, card_q: "c2", email_q: "dee@example.com", date_q: "2024-02-29", yn_q: false, calc_q: 8 };
      for (const [key, value] of Object.entries(expected)) assert.deepStrictEqual(answers[key]?.value, value, key);
      assert.strictEqual(answers.file_q.value.file_name, "invoice.pdf");
      const voice = answers.voice_q;
      assert.ok(voice.audio_url && voice.duration > 1, JSON.stringify(voice));
      assert.ok(/\b(delivery|support|team|late)\b/.test(voice.transcription || ""), `stored transcription: ${voice.transcription}`);
      console.log(`  stored transcription: ${JSON.stringify(voice.transcription)}`);
      await context.close();
    });

    await run("a voice answer is recorded as WebM/Opus, transcribed, and sought in where it is stored", async () => {
      const made = await api("POST", "links/", ws.api_key, {
        name: "Opus", slug: "opus", questions: [{ prompt: "Tell us more", type: "voice", field_key: "said", configuration: { max_duration: 600 } }],
      });
      assert.strictEqual(made.status, 201, JSON.stringify(made.body));
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.grantPermissions(["microphone"], { origin });
      const page = await context.newPage();
      const uploads = [];
      page.on("request", (r) => r.method() === "POST" && r.url().includes("/audio/said/") && uploads.push(r.headers()["content-type"]));
      const ranges = [];
      page.on("request", (r) => r.url().includes("/media/") && ranges.push(r.headers().range || ""));
      await page.goto(`${origin}/i/opus`);
      // Opus holds up to an hour: the timer says the question's 10 minutes, not WAV's 5:20.
      await page.locator("#q-said .timer").filter({ hasText: "0:00 / 10:00" }).waitFor();
      await page.locator("#q-said").getByRole("button", { name: "Record your answer" }).click();
      // Two loops of the fake microphone: the sentence whole at least once.
      await page.waitForTimeout(2 * loopMillis(fakeAudioFile) + 500);
      await page.locator("#q-said").getByRole("button", { name: "Stop recording" }).click();
      await page.locator("#q-said .saved").filter({ hasText: "Recording saved" }).waitFor({ timeout: 20000 });
      assert.deepStrictEqual(uploads, ["audio/webm"], "uploaded as WebM/Opus");
      // The player plays what was stored, and seeks in it: the browser reads it in parts.
      const seek = await page.evaluate(async () => {
        const player = document.querySelector("#q-said audio");
        if (player.readyState < 1) await new Promise((resolve) => player.addEventListener("loadedmetadata", resolve, { once: true }));
        const target = Math.min(3, player.duration / 2);
        await new Promise((resolve) => {
          player.addEventListener("seeked", resolve, { once: true });
          player.currentTime = target;
        });
        return { src: player.getAttribute("src"), duration: player.duration, target, now: player.currentTime, seekable: player.seekable.length ? player.seekable.end(0) : 0 };
      });
      assert.ok(seek.src.startsWith("/media/"), `played back from ${seek.src}`);
      assert.ok(Number.isFinite(seek.duration) && seek.duration > 1, `duration ${seek.duration}`);
      assert.ok(Math.abs(seek.now - seek.target) < 0.5 && seek.seekable >= seek.target, JSON.stringify(seek));
      assert.ok(ranges.some((r) => r.startsWith("bytes=")), `the player asked for ranges: ${JSON.stringify(ranges)}`);
      await page.getByRole("button", { name: "Send my answers" }).click();
      await page.getByRole("heading", { name: "Thanks for your response!" }).waitFor();
      let voice = null;
      for (let i = 0; i < 60 && !(voice && typeof voice.transcription === "string"); i++) {
        const list = await api("GET", `links/${made.body.uuid}/responses/`, ws.api_key);
        voice = list.body.results[0]?.answers.find((a) => a.field_key === "said");
        if (!(voice && typeof voice.transcription === "string")) await page.waitForTimeout(500);
      }
      assert.ok(voice.duration > loopMillis(fakeAudioFile) / 1000, JSON.stringify(voice));
      assert.ok(/\b(delivery|support|team|late)\b/.test(voice.transcription || ""), `transcription: ${voice.transcription}`);
      console.log(`  WebM/Opus answer: ${voice.duration.toFixed(1)} s, ${JSON.stringify(voice.transcription)}; sought to ${seek.now.toFixed(2)} s of ${seek.duration.toFixed(2)}`);
      await context.close();
    });

    await run("360 px wide: nothing wider than the screen", async () => {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      const page = await context.newPage();
      await page.goto(`${origin}/i/every`);
      await page.locator("#questions").waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
      await page.screenshot({ path: path.join(artifacts, "intake-360.png"), fullPage: true });
      await context.close();
    });

    await run("keyboard only", async () => {
      const made = await api("POST", "links/", ws.api_key, {
        name: "Keyboard", slug: "keys", questions: [
          { prompt: "Your name", type: "text", field_key: "name_q", required: true },
          { prompt: "Rate us", type: "rating", field_key: "rate_q", required: true, configuration: { max_value: 5 } },
          { prompt: "Did we help", type: "yes_no", field_key: "yn_q" },
        ],
      });
      assert.strictEqual(made.status, 201);
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${origin}/i/keys`);
      await page.locator("#questions").waitFor();
      const kb = page.keyboard;
      await kb.press("Tab"); // skip link
      await kb.press("Tab"); // name
      await kb.type("Ada");
      await kb.press("Tab"); // first star
      await kb.press("ArrowRight");
      await kb.press("ArrowRight");
      await kb.press("ArrowRight"); // 4 stars
      await kb.press("Tab"); // yes
      await kb.press("Space");
      await kb.press("Tab"); // send
      const focused = await page.evaluate(() => document.activeElement.textContent);
      assert.strictEqual(focused, "Send my answers", `focus is on ${focused}`);
      await kb.press("Enter");
      await page.getByRole("heading", { name: "Thanks for your response!" }).waitFor();
      const list = await api("GET", `links/${made.body.uuid}/responses/`, ws.api_key);
      const answers = Object.fromEntries(list.body.results[0].answers.map((a) => [a.field_key, a.value]));
      assert.deepStrictEqual(answers, { name_q: "Ada", rate_q: 4, yn_q: true });
      await context.close();
    });

    await run("axe-core: no serious or critical violations", async () => {
      // The page's policy admits no inline script; the scanner is injected around it.
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${origin}/i/every`);
      await page.locator("#questions").waitFor();
      assert.deepStrictEqual(await seriousViolations(page), []);
      await context.close();
    });

    await run("answers are kept as they are given: a closed tab loses nothing, a reload shows them", async () => {
      const made = await api("POST", "links/", ws.api_key, {
        name: "Kept", slug: "kept", questions: [
          { prompt: "Your name", type: "text", field_key: "name_q" },
          { prompt: "Pick one", type: "multiple_choice", field_key: "pick_q", configuration: { options: ["tea", "coffee"] } },
        ],
      });
      assert.strictEqual(made.status, 201);
      const context = await browser.newContext();
      let page = await context.newPage();
      await page.goto(`${origin}/i/kept`);
      await page.locator("#input-name_q").fill("Grace");
      await page.locator("#q-pick_q").getByText("coffee").click();
      await page.locator("#q-pick_q .saved").filter({ hasText: "Saved" }).waitFor();
      await page.locator("#q-name_q .saved").filter({ hasText: "Saved" }).waitFor();
      await page.close();
      const list = await api("GET", `links/${made.body.uuid}/responses/?status=in_progress`, ws.api_key);
      assert.strictEqual(list.body.count, 1, JSON.stringify(list.body));
      const kept = Object.fromEntries(list.body.results[0].answers.map((a) => [a.field_key, a.value]));
      assert.deepStrictEqual(kept, { name_q: "Grace", pick_q: "coffee" });
      page = await context.newPage();
      await page.goto(`${origin}/i/kept`);
      assert.strictEqual(await page.locator("#input-name_q").inputValue(), "Grace");
      assert.ok(await page.locator("#q-pick_q input[type=radio]").nth(1).isChecked());
      await page.getByRole("button", { name: "Send my answers" }).click();
      await page.getByRole("heading", { name: "Thanks for your response!" }).waitFor();
      const done = await api("GET", `links/${made.body.uuid}/responses/?status=all`, ws.api_key);
      assert.deepStrictEqual(done.body.results.map((r) => r.status), ["completed"], "the same response, submitted");
      await context.close();
    });

    await run("a follow-up question appears under a vague answer and takes an answer", async () => {
      const made = await api("POST", "links/", ws.api_key, {
        name: "Probe", slug: "probe", questions: [{
          prompt: "What should we change?", type: "text", field_key: "change", enable_dynamic_probing: true,
          evaluator_config: { clarity_threshold: 0.7, max_follow_ups: 1, custom_fields: ["pricing"] },
        }],
      });
      assert.strictEqual(made.status, 201, JSON.stringify(made.body));
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${origin}/i/probe`);
      await page.locator("#input-change").fill("stuff");
      await page.locator("#input-change").blur();
      const prompt = page.locator("#q-change .follow-prompt");
      await prompt.waitFor();
      assert.strictEqual(await prompt.textContent(), "Could you tell us more about pricing?");
      await page.locator("#follow-change").fill("The monthly price is too high for a small team");
      await page.locator("#q-change .follow-up").getByRole("button", { name: "Send" }).click();
      await prompt.waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Send my answers" }).click();
      await page.getByRole("heading", { name: "Thanks for your response!" }).waitFor();
      const list = await api("GET", `links/${made.body.uuid}/responses/`, ws.api_key);
      const answer = list.body.results[0].answers[0];
      assert.strictEqual(answer.follow_ups[0].value, "The monthly price is too high for a small team");
      await context.close();
    });

    await run("a prompt is read aloud when the link asks for it", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${origin}/i/every`);
      const [speech] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith("/speech.wav")),
        page.locator("#q-text_q").getByRole("button", { name: /Listen/ }).click(),
      ]);
      assert.strictEqual(speech.status(), 200);
      assert.strictEqual(speech.headers()["content-type"], "audio/wav");
      await context.close();
    });

    await run("the API's documentation renders from the gateway alone", async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      // Redoc's footer asks for its logo on a CDN: the page's policy refuses it (and Redoc then
      // hides it); anything else refused or failing is an error.
      const logo = "https://cdn.redoc.ly/redoc/logo-mini.svg";
      page.on("console", (m) => m.type() === "error" && !m.text().includes(logo) && errors.push(m.text()));
      const outside = [];
      const local = (url) => url.startsWith(`http://127.0.0.1:${gatewayPort}/`) || url.startsWith("blob:") || url.startsWith("data:");
      page.on("requestfinished", (r) => !local(r.url()) && outside.push(r.url()));
      page.on("request", (r) => !local(r.url()) && r.url() !== logo && outside.push(r.url()));
      await page.goto(`http://127.0.0.1:${gatewayPort}/v1/docs/`);
      await page.getByRole("heading", { name: "Create a link" }).waitFor({ timeout: 20000 });
      await page.getByRole("heading", { name: "Upload a recorded answer" }).waitFor();
      await page.screenshot({ path: path.join(artifacts, "api-docs-1280.png") });
      assert.deepStrictEqual(outside, [], "nothing is fetched from elsewhere");
      assert.deepStrictEqual(errors, [], "no script errors or refused resources");
      await context.close();
    });

    await run("a paused link says so", async () => {
      await api("POST", "links/", ws.api_key, { name: "Resting", slug: "resting", status: "paused", questions: [{ prompt: "Hi", type: "text", field_key: "hi" }] });
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${origin}/i/resting`);
      await page.getByText("This form is paused").waitFor();
      assert.strictEqual(await page.locator("#questions").count(), 0);
      await context.close();
    });
  } finally {
    await browser.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  process.exit(tests.summary("intake page") ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
