// W6's and W8's receiver: an HTTPS endpoint that answers 204 at once and, for every
// response.submitted delivery, takes the time from the event's "timestamp" (set by the
// responses service as the submission is written) to the delivery's arrival. Prints its port,
// then on SIGTERM one JSON line: {"count", "p50_ms", "p99_ms", "max_ms", "duplicates"}.
// GET /stats meanwhile: {"count", "last_ms" (the last arrival, Unix ms), "duplicates"}.
// node webhook_sink.js CERT_DIR   (server.pem and server.key of the stack's webhook CA)
"use strict";
const fs = require("fs");
const https = require("https");
const path = require("path");
const { performance } = require("perf_hooks");

const dir = process.argv[2];
const latencies = [];
const seen = new Set();
let duplicates = 0;
let lastArrival = 0;

const server = https.createServer(
  { cert: fs.readFileSync(path.join(dir, "server.pem")), key: fs.readFileSync(path.join(dir, "server.key")),
    keepAliveTimeout: 60000 },
  (req, res) => {
    if (req.method === "GET" && req.url === "/stats") {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ count: latencies.length, last_ms: lastArrival, duplicates }));
      return;
    }
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const arrived = performance.timeOrigin + performance.now();  // ms, sub-millisecond
      res.writeHead(204).end();
      const id = req.headers["webhook-id"];
      if (seen.has(id)) {
        duplicates += 1;
        return;
      }
      seen.add(id);
      const event = JSON.parse(Buffer.concat(chunks).toString());
      if (event.type !== "response.submitted") return;
      lastArrival = arrived;
      latencies.push(arrived - Date.parse(event.timestamp.replace(/(\.\d{3})\d*Z$/, "$1Z")) -
        Number(event.timestamp.match(/\.\d{3}(\d{3})Z$/)[1]) / 1000);
    });
  });

server.listen(0, "127.0.0.1", () => console.log(server.address().port));
process.on("SIGTERM", () => {
  latencies.sort((a, b) => a - b);
  const at = (q) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] : 0);
  console.log(JSON.stringify({ count: latencies.length, p50_ms: at(0.5), p99_ms: at(0.99),
    max_ms: latencies.length ? latencies[latencies.length - 1] : 0, duplicates }));
  process.exit(0);
});
