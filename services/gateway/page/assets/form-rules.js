// The intake's rules as the server applies them (common/questions/form_rules.cc, formula.cc),
// so that the page shows and hides questions and previews calculated values exactly as the
// submission will be judged. tests/e2e/form_rules_agreement.js checks both agree.

function numeric(value) {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function lowerAscii(text) {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function textEquals(answer, expected) {
  if (typeof answer === "string") return typeof expected === "string" && answer === expected;
  if (typeof answer === "boolean") {
    if (typeof expected !== "string") return false;
    const word = lowerAscii(expected);
    return answer ? word === "true" || word === "yes" : word === "false" || word === "no";
  }
  const a = numeric(answer);
  const e = numeric(expected);
  return a !== null && e !== null && a === e;
}

function textContains(answer, keyword) {
  return typeof answer === "string" && lowerAscii(answer).includes(lowerAscii(keyword));
}

// Whether `condition` shows its question when the tested answer is `answer` (null: none).
export function conditionHolds(condition, answer) {
  if (!condition || Object.keys(condition).length === 0) return true;
  if (answer === null || answer === undefined) return false;
  const op = condition.operator;
  const expected = condition.value;
  if (typeof op !== "string" || expected === undefined) return false;
  if (op === "less_than") {
    const a = numeric(answer);
    const e = numeric(expected);
    return a !== null && e !== null && a < e;
  }
  if (op === "equals") {
    if (Array.isArray(answer)) return answer.some((item) => textEquals(item, expected));
    return textEquals(answer, expected);
  }
  if (op === "contains") {
    if (typeof expected !== "string") return false;
    if (Array.isArray(answer)) return answer.some((item) => textContains(item, expected));
    return textContains(answer, expected);
  }
  return false;
}

// A formula ("(q1 + q2) * 2") parsed into a function of a lookup; null when malformed.
export function parseFormula(text) {
  const tokens = [];
  const pattern = /\s*(?:(\d+\.?\d*|\.\d+)|([a-z0-9]+(?:_[a-z0-9]+)*)|([-+*/()]))/y;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    pattern.lastIndex = at;
    const m = pattern.exec(text);
    if (!m) return null;
    if (m[1] !== undefined) tokens.push({ number: Number(m[1]) });
    else if (m[2] !== undefined) tokens.push({ field: m[2] });
    else tokens.push({ op: m[3] });
    at = pattern.lastIndex;
  }
  let pos = 0;
  const peek = () => tokens[pos];
  function primary() {
    const t = tokens[pos++];
    if (!t) throw new Error("end");
    if (t.number !== undefined) return () => t.number;
    if (t.field !== undefined) return (get) => get(t.field);
    if (t.op === "-") {
      const inner = primary();
      return (get) => {
        const v = inner(get);
        return v === null ? null : -v;
      };
    }
    if (t.op === "(") {
      const inner = sum();
      if (!peek() || peek().op !== ")") throw new Error(")");
      pos++;
      return inner;
    }
    throw new Error("token");
  }
  function binary(next, ops) {
    return () => {
      let left = next();
      while (peek() && ops.includes(peek().op)) {
        const op = tokens[pos++].op;
        const l = left;
        const r = next();
        left = (get) => {
          const a = l(get);
          const b = r(get);
          if (a === null || b === null) return null;
          if (op === "+") return a + b;
          if (op === "-") return a - b;
          if (op === "*") return a * b;
          return b === 0 ? null : a / b;
        };
      }
      return left;
    };
  }
  const product = binary(primary, ["*", "/"]);
  const sum = binary(product, ["+", "-"]);
  try {
    const root = sum();
    if (pos !== tokens.length) return null;
    return (get) => {
      const v = root(get);
      return v === null || !Number.isFinite(v) ? null : v;
    };
  } catch {
    return null;
  }
}

function typeOf(question) {
  return question.response_type ?? question.type;
}

// Which questions show and what calculated questions hold, for `answers` ({field_key: value}),
// deciding along display order as the server does.
export function evaluateForm(questions, answers) {
  const index = new Map(questions.map((q, i) => [q.field_key, i]));
  const shown = new Array(questions.length).fill(false);
  const formulas = new Map();
  questions.forEach((q, i) => {
    if (typeOf(q) === "calculated") formulas.set(i, parseFormula(String(q.configuration?.formula ?? "")));
  });
  let decided = 0;
  const active = new Set();
  function calculate(i) {
    const formula = formulas.get(i);
    if (!formula || active.has(i)) return null;
    active.add(i);
    const result = formula((key) => numeric(visibleValue(key)));
    active.delete(i);
    return result;
  }
  function visibleValue(key) {
    const i = index.get(key);
    if (i === undefined || i >= decided || !shown[i]) return null;
    if (typeOf(questions[i]) === "calculated") return calculate(i);
    const v = answers[key];
    return v === undefined ? null : v;
  }
  for (let i = 0; i < questions.length; i++) {
    const condition = questions[i].condition || {};
    const field = typeof condition.field === "string" ? condition.field : null;
    shown[i] = conditionHolds(condition, field === null ? null : visibleValue(field));
    decided = i + 1;
  }
  const calculated = {};
  questions.forEach((q, i) => {
    if (shown[i] && typeOf(q) === "calculated") calculated[q.field_key] = calculate(i);
  });
  return { shown, calculated };
}

// Whether a value counts as an answer to a required question.
export function isAnswered(value) {
  if (value === null || value === undefined) return false;
  if (typeof value === "string") return /[^ \t\r\n]/.test(value);
  if (Array.isArray(value)) return value.length > 0;
  return true;
}
