// End to end: real deliveries from a running stack to an HTTPS receiver in this process,
// their signatures checked by `standardwebhooks`, the Standard Webhooks reference library
// (installed into .tools/ by scripts/setup), not by our own code.
//
// node tests/e2e/webhook_signatures.js   (STACK_DIR: the stack, default .run; the stack must
// run with WEBHOOK_ALLOW_PRIVATE=true and WEBHOOK_CA_BUNDLE from tests/integration's CA)
"use strict";
const fs = require("fs");
const path = require("path");
const http = require("http");
const https = require("https");
const { execSync } = require("child_process");

const root = path.resolve(__dirname, "..", "..");
const { Webhook } = require(path.join(root, ".tools", "node_modules", "standardwebhooks"));

const { stackEnv } = require("./stack_env");

const env = stackEnv();
const base = new URL(env.BASE_URL);

function call(method, target, { key, host, body } = {}) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = { Accept: "application/json" };
    if (key) headers.Authorization = `Bearer ${key}`;
    if (host) headers.Host = host;
    if (data) Object.assign(headers, { "Content-Type": "application/json", "Content-Length": data.length });
    const req = http.request({ host: base.hostname, port: base.port, method, path: target, headers }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode, json: text ? JSON.parse(text) : null });
      });
    });
    req.on("error", reject);
    req.end(data);
  });
}

async function expect(promise, status) {
  const r = await promise;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.json)}`);
  return r.json;
}

function receiver(caDir) {
  const deliveries = [];
  const waiters = [];
  const server = https.createServer(
    { cert: fs.readFileSync(path.join(caDir, "server.pem")), key: fs.readFileSync(path.join(caDir, "server.key")) },
    (req, res) => {
      const chunks = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        deliveries.push({ path: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.writeHead(204).end();
        waiters.splice(0).forEach((w) => w());
      });
    });
  const waitFor = async (pred, ms) => {
    const deadline = Date.now() + ms;
    while (!deliveries.some(pred)) {
      if (Date.now() > deadline) throw new Error("no matching delivery in time");
      await new Promise((r) => { waiters.push(r); setTimeout(r, 200); });
    }
    return deliveries.find(pred);
  };
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, deliveries, waitFor })));
}

async function main() {
  if (!env.WEBHOOK_CA_BUNDLE) throw new Error("the stack must run with WEBHOOK_CA_BUNDLE (scripts/test)");
  const caDir = path.dirname(env.WEBHOOK_CA_BUNDLE);
  const rx = await receiver(caDir);
  const port = rx.server.address().port;
  const ws = JSON.parse(execSync(`${env.FEEDBACKCTL} workspace create --name e2e-webhooks --plan enterprise`).toString());
  const key = ws.api_key;
  const hooks = `/v1/workspaces/${ws.workspace_uuid}/webhooks/`;
  const generated = await expect(call("POST", hooks, {
    key, body: { url: `https://127.0.0.1:${port}/generated`, events: ["response.started", "response.submitted"] },
  }), 201);
  await expect(call("POST", "/v1/links/", {
    key, body: {
      name: "E2E", slug: "e2e", questions: [{ prompt: "Why?", field_key: "why" }],
      on_finished: { webhook_url: `https://127.0.0.1:${port}/raw`, webhook_secret: "a plain secret" },
    },
  }), 201);
  const rec = await expect(call("POST", "/i/e2e/submit/", { host: ws.host, body: { answers: { why: "fine" } } }), 201);

  let checked = 0;
  const verify = (d, verifier) => {
    const payload = verifier.verify(d.body, d.headers);
    if (payload.data.response.uuid !== rec.uuid) throw new Error("payload names another response");
    let tampered = false;
    try {
      verifier.verify(d.body.replace("fine", "FINE"), d.headers);
    } catch (e) {
      tampered = true;
    }
    if (!tampered) throw new Error("a changed body still verified");
    checked += 1;
  };
  const whsec = new Webhook(generated.secret);
  for (const type of ["response.started", "response.submitted"]) {
    verify(await rx.waitFor((d) => d.path === "/generated" && JSON.parse(d.body).type === type, 10000), whsec);
  }
  // A secret that is not whsec_ signs with its own bytes: the library's "raw" format.
  verify(await rx.waitFor((d) => d.path === "/raw", 10000), new Webhook(Buffer.from("a plain secret"), { format: "raw" }));

  const test = await expect(call("POST", `${hooks}${generated.uuid}/test/`, { key }), 202);
  const sample = await rx.waitFor((d) => d.headers["webhook-id"] === test.event_id, 10000);
  const body = whsec.verify(sample.body, sample.headers);
  if (body.test !== true) throw new Error("the test event is not marked test");
  checked += 1;
  rx.server.close();
  console.log(`e2e webhook signatures: ${checked} deliveries verified by standardwebhooks`);
}

main().then(() => process.exit(0), (e) => {
  console.error(`e2e webhook signatures: FAIL ${e.message}`);
  process.exit(1);
});
