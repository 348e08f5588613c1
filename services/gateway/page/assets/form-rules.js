// The intake's rules as the server applies them (common/questions/form_rules.cc, conditions.cc,
// recall.cc, formula.cc), so that the page shows and hides questions, fills recalled answers
// into prompts and previews calculated values exactly as the submission will be judged.
// tests/e2e/form_rules_agreement.js checks both agree.

function numeric(value) {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function lowerAscii(text) {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function scalarEquals(answer, expected) {
  if (typeof answer === "string") return typeof expected === "string" && answer === expected;
  if (typeof answer === "boolean") {
    if (typeof expected === "boolean") return answer === expected;
    if (typeof expected !== "string") return false;
    const word = lowerAscii(expected);
    return answer ? word === "true" || word === "yes" : word === "false" || word === "no";
  }
  const a = numeric(answer);
  const e = numeric(expected);
  return a !== null && e !== null && a === e;
}

function anyItem(answer, test) {
  return Array.isArray(answer) ? answer.some(test) : test(answer);
}

function holdsItem(answer, item) {
  return anyItem(answer, (v) => scalarEquals(v, item));
}

function textTest(answer, op, expected) {
  if (typeof answer !== "string") return false;
  const text = lowerAscii(answer);
  const word = lowerAscii(expected);
  if (op === "starts_with") return text.startsWith(word);
  if (op === "ends_with") return text.endsWith(word);
  return text.includes(word);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.(\d{1,9}))?)?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

// A real calendar day written YYYY-MM-DD (common/questions/calendar.h).
export function isCalendarDate(text) {
  const m = DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= days;
}

export function isClockTime(text) {
  return TIME.test(text);
}

// Days from 1970-01-01 to a civil date (common/questions/calendar.cc): Date.UTC would take
// years 0-99 for 1900-1999.
function daysFromCivil(year, month, day) {
  const y = year - (month <= 2 ? 1 : 0);
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

// Microseconds since the epoch of an ISO 8601 instant with an offset, in years 1 to 9999;
// null otherwise.
export function instantMicros(text) {
  const m = INSTANT.exec(text);
  if (!m || !isCalendarDate(text.slice(0, 10))) return null;
  const local = daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3])) * 86400 + Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6] ?? 0);
  let offset = 0;
  if (m[8] !== "Z") offset = (m[8][0] === "+" ? 1 : -1) * (Number(m[8].slice(1, 3)) * 3600 + Number(m[8].slice(4, 6)) * 60);
  const utc = local - offset;
  if (utc < daysFromCivil(1, 1, 1) * 86400 || utc >= daysFromCivil(10000, 1, 1) * 86400) return null;
  const fraction = Number(((m[7] ?? "") + "000000").slice(0, 6));
  return utc * 1e6 + fraction;
}

function compare(answer, expected) {
  const a = numeric(answer);
  const e = numeric(expected);
  if (a !== null && e !== null) return Math.sign(a - e);
  if (typeof answer !== "string" || typeof expected !== "string") return null;
  if ((isCalendarDate(answer) && isCalendarDate(expected)) || (isClockTime(answer) && isClockTime(expected))) {
    return answer < expected ? -1 : answer > expected ? 1 : 0;
  }
  const x = instantMicros(answer);
  const y = instantMicros(expected);
  return x !== null && y !== null ? Math.sign(x - y) : null;
}

// Whether a leaf holds for `answer` (null: unanswered or not shown), as
// common/questions/conditions.cc decides.
export function leafHolds(leaf, answer) {
  const op = leaf.operator;
  // A blank string, [] or {} is no answer: only is_not_answered holds on it.
  const answered = isAnswered(answer);
  if (op === "is_not_answered") return !answered;
  if (op === "is_answered" || !answered) return answered;
  const expected = leaf.value;
  if (typeof op !== "string" || expected === undefined) return false;
  if (op === "equals") return holdsItem(answer, expected);
  if (op === "not_equals") return !holdsItem(answer, expected);
  if (["less_than", "greater_than", "less_than_or_equal", "greater_than_or_equal"].includes(op)) {
    const order = compare(answer, expected);
    if (order === null) return false;
    if (op === "less_than") return order < 0;
    if (op === "greater_than") return order > 0;
    if (op === "less_than_or_equal") return order <= 0;
    return order >= 0;
  }
  if (["contains", "starts_with", "ends_with", "not_contains"].includes(op)) {
    if (typeof expected !== "string") return false;
    const test = op === "not_contains" ? "contains" : op;
    const found = anyItem(answer, (v) => textTest(v, test, expected));
    return op === "not_contains" ? !found : found;
  }
  if (!Array.isArray(expected)) return false;
  if (op === "includes_any") return expected.some((item) => holdsItem(answer, item));
  if (op === "includes_all") return expected.every((item) => holdsItem(answer, item));
  if (op === "excludes_all") return !expected.some((item) => holdsItem(answer, item));
  return false;
}

// Whether `condition` (a leaf, an all/any group, or {}) shows its question; `answerOf(field)`
// gives the answer to a field ("key" or "key.part"), null when unanswered or not shown.
export function conditionHolds(condition, answerOf) {
  if (!condition || Object.keys(condition).length === 0) return true;
  if ("all" in condition) return Array.isArray(condition.all) && condition.all.every((c) => c && typeof c === "object" && conditionHolds(c, answerOf));
  if ("any" in condition) return Array.isArray(condition.any) && condition.any.some((c) => c && typeof c === "object" && conditionHolds(c, answerOf));
  return leafHolds(condition, typeof condition.field === "string" ? answerOf(condition.field) : null);
}

// The part of an answer a dotted field names: an object's member, a range's low or high.
export function answerPart(answer, part) {
  if (part === "") return answer;
  if (answer && typeof answer === "object" && !Array.isArray(answer)) return Object.hasOwn(answer, part) ? answer[part] : null;
  if (Array.isArray(answer) && answer.length === 2) {
    if (part === "low") return answer[0];
    if (part === "high") return answer[1];
  }
  return null;
}

// An answer as recall shows it (common/questions/recall.h).
export function recallText(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return value.map(recallText).join(", ");
  return "";
}

// `text` with each {{field}} replaced by its answer's text.
export function withRecall(text, answerOf) {
  return String(text ?? "").replace(/\{\{([^}]*)\}\}/g, (_, field) => recallText(answerOf(field.trim())));
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

// Which questions show, what calculated questions hold, the answers as the server keeps them
// (hidden_field defaults filled) and each prompt as the respondent sees it, for `answers`
// ({field_key: value}), deciding along display order as the server does.
export function evaluateForm(questions, answers) {
  const index = new Map(questions.map((q, i) => [q.field_key, i]));
  const shown = new Array(questions.length).fill(false);
  // No prototype: a field_key such as "constructor" is a key like any other.
  const values = Object.create(null);
  const formulas = new Map();
  questions.forEach((q, i) => {
    if (typeOf(q) === "calculated") formulas.set(i, parseFormula(String(q.configuration?.formula ?? "")));
    const given = Object.hasOwn(answers, q.field_key) ? answers[q.field_key] : null;
    const blank = given && typeof given === "object" && !Array.isArray(given) && Object.keys(given).length === 0;
    if (given !== null && !blank) values[q.field_key] = given;
    // A hidden_field the page did not fill, or filled with nothing.
    const fallback = q.configuration?.default_value;
    if (!isAnswered(values[q.field_key]) && typeof fallback === "string") values[q.field_key] = fallback;
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
  function visibleValue(field) {
    const dot = field.indexOf(".");
    const key = dot < 0 ? field : field.slice(0, dot);
    const i = index.get(key);
    if (i === undefined || i >= decided || !shown[i]) return null;
    if (typeOf(questions[i]) === "calculated") return calculate(i);
    const v = values[key];
    if (v === undefined || v === null) return null;
    const part = answerPart(v, dot < 0 ? "" : field.slice(dot + 1));
    return part === undefined ? null : part;
  }
  for (let i = 0; i < questions.length; i++) {
    shown[i] = conditionHolds(questions[i].condition || {}, visibleValue);
    decided = i + 1;
  }
  const calculated = Object.create(null);
  const prompts = Object.create(null);
  questions.forEach((q, i) => {
    if (shown[i] && typeOf(q) === "calculated") calculated[q.field_key] = calculate(i);
    prompts[q.field_key] = withRecall(q.prompt ?? "", visibleValue);
  });
  return { shown, calculated, values, prompts, recall: (text) => withRecall(text, visibleValue) };
}

// Whether a value counts as an answer to a required question.
export function isAnswered(value) {
  if (value === null || value === undefined) return false;
  if (typeof value === "string") return /[^ \t\r\n]/.test(value);
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}
