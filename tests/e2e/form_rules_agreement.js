// The intake page's rules (services/gateway/page/assets/form-rules.js) against the cases the
// server's rules are tested with (tests/shared/form_rules_cases.json): the page shows, hides
// and computes exactly what a submission keeps.   node tests/e2e/form_rules_agreement.js
"use strict";
const fs = require("fs");
const path = require("path");
const assert = require("assert");

const root = path.resolve(__dirname, "..", "..");

async function main() {
  const rules = await import(path.join(root, "services/gateway/page/assets/form-rules.js"));
  const { cases } = JSON.parse(fs.readFileSync(path.join(root, "tests/shared/form_rules_cases.json"), "utf8"));
  let failed = 0;
  for (const c of cases) {
    const questions = c.questions.map((q) => ({ ...q, condition: q.condition ? { show_if: "field_value", ...q.condition } : {} }));
    const { shown, calculated, values, prompts } = rules.evaluateForm(questions, c.answers);
    const kept = {};
    questions.forEach((q, i) => {
      if (!shown[i]) return;
      if (q.type === "calculated") kept[q.field_key] = calculated[q.field_key];
      else if (q.field_key in values) kept[q.field_key] = values[q.field_key];
    });
    try {
      assert.strictEqual(Object.keys(kept).length, Object.keys(c.kept).length, JSON.stringify(kept));
      for (const [key, value] of Object.entries(c.kept)) {
        if (typeof value === "number") assert.ok(Math.abs(kept[key] - value) < 1e-9, `${key}: ${kept[key]}`);
        else assert.deepStrictEqual(kept[key], value, key);
      }
      for (const [key, text] of Object.entries(c.question_texts ?? {})) assert.strictEqual(prompts[key], text, key);
    } catch (e) {
      failed += 1;
      console.log(`FAIL ${c.name}: ${e.message}`);
    }
  }
  console.log(`form rules agreement: ${cases.length - failed} of ${cases.length} cases agree with the server's`);
  process.exit(failed ? 1 : 0);
}

main();
