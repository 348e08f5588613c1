// What the browser tests of the intake page share: the stack's settings, API calls, a new
// workspace, Chromium (Debian's, driven by playwright-core from .tools/), axe-core and a
// runner that prints PASS/FAIL lines and a summary scripts/test reads.
"use strict";
const fs = require("fs");
const path = require("path");
const http = require("http");
const { execFileSync } = require("child_process");

const root = path.resolve(__dirname, "..", "..");
const tools = path.join(root, ".tools", "node_modules");
const { chromium } = require(path.join(tools, "playwright-core"));
const axeSource = fs.readFileSync(path.join(tools, "axe-core", "axe.min.js"), "utf8");
const artifacts = path.join(root, ".run", "artifacts");

const { stackEnv } = require("./stack_env");

const env = stackEnv();
const gatewayPort = env.GATEWAY_ADDR.split(":")[1];

function api(method, pathname, key, body) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const req = http.request(
      { host: "127.0.0.1", port: gatewayPort, method, path: `/v1/${pathname}`,
        headers: { Authorization: `Bearer ${key}`, ...(data ? { "Content-Type": "application/json" } : {}) } },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on("error", reject);
    if (data) req.write(data);
    req.end();
  });
}

function workspace() {
  const parts = env.FEEDBACKCTL.split(" ");
  const cmd = parts.filter((p) => !p.includes("="));
  const vars = Object.fromEntries(parts.filter((p) => p.includes("=") && p !== "env").map((p) => p.split("=")));
  const out = execFileSync(cmd[cmd.length - 1], ["workspace", "create", "--name", `e2e-${Date.now()}`, "--plan", "enterprise"], { env: { ...process.env, ...vars } });
  return JSON.parse(out);
}

function launchBrowser(extraArgs = []) {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync", ...extraArgs],
  });
}

// The axe-core violations of `page` that are serious or critical, as "id: targets" lines.
async function seriousViolations(page) {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  for (const v of result.violations) console.log(`  axe ${v.impact}: ${v.id} (${v.nodes.length})`);
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`);
}

// Runs named tests one after another (only those whose name holds E2E_ONLY, when set);
// summary() prints "<what>: N passed, M failed".
function runner() {
  const results = [];
  const only = process.env.E2E_ONLY;
  return {
    async run(name, fn) {
      if (only && !name.includes(only)) return;
      try {
        await fn();
        results.push([name, true]);
        console.log(`PASS ${name}`);
      } catch (e) {
        results.push([name, false]);
        console.log(`FAIL ${name}: ${e.stack || e}`);
      }
    },
    summary(what) {
      const failed = results.filter(([, ok]) => !ok).length;
      console.log(`${what}: ${results.length - failed} passed, ${failed} failed (screenshots in ${artifacts})`);
      return failed;
    },
  };
}

module.exports = { api, artifacts, axeSource, gatewayPort, launchBrowser, runner, seriousViolations, workspace };
