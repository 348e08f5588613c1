// The settings of the stack the end-to-end tests run against: $STACK_DIR/stack.env (default
// .run), as scripts/stack writes it.
"use strict";
const fs = require("fs");
const path = require("path");

function stackEnv() {
  const dir = process.env.STACK_DIR || path.join(__dirname, "..", "..", ".run");
  const env = {};
  for (const line of fs.readFileSync(path.join(dir, "stack.env"), "utf8").split("\n")) {
    const i = line.indexOf("=");
    if (i > 0) env[line.slice(0, i)] = line.slice(i + 1).replace(/^"(.*)"$/, "$1");
  }
  return env;
}

module.exports = { stackEnv };
