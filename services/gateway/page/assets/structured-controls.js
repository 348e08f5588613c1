// The intake page's controls for answers made of parts: a matrix (a table of radio buttons or
// checkboxes with row and column headers), a ranking (reordered with move buttons or by
// dragging), contact details and addresses (grouped fields with autocomplete), a date range
// and a consent checkbox.
import { config, el, setAnswer, state } from "./page.js";
import { PARTS } from "./parts.js";

export function matrixControl(q) {
  const c = config(q);
  const key = q.field_key;
  const rows = c.rows || [];
  const columns = c.columns || [];
  const given = state.answers[key] && typeof state.answers[key] === "object" ? state.answers[key] : Object.create(null);
  const table = el("table", { class: "matrix" });
  const head = el("tr", {}, el("td", {}));
  for (const column of columns) head.append(el("th", { scope: "col", id: `col-${key}-${column.id}`, text: column.label }));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  const read = () => {
    const value = Object.create(null); // row ids such as __proto__ are keys like any other
    for (const row of rows) {
      const chosen = columns.filter((column) => table.querySelector(`#cell-${key}-${row.id}-${column.id}`).checked).map((column) => column.id);
      if (!chosen.length) continue;
      value[row.id] = c.multiple ? chosen : chosen[0];
    }
    return value;
  };
  for (const row of rows) {
    const tr = el("tr", {}, el("th", { scope: "row", id: `row-${key}-${row.id}`, text: row.label }));
    for (const column of columns) {
      const picked = Object.hasOwn(given, row.id) ? given[row.id] : null;
      const input = el("input", {
        type: c.multiple ? "checkbox" : "radio",
        id: `cell-${key}-${row.id}-${column.id}`,
        name: `answer-${key}-${row.id}`,
        "aria-labelledby": `row-${key}-${row.id} col-${key}-${column.id}`,
        checked: Array.isArray(picked) ? picked.includes(column.id) : picked === column.id,
      });
      input.addEventListener("change", () => setAnswer(key, read()));
      tr.append(el("td", {}, input));
    }
    body.append(tr);
  }
  table.append(body);
  return el("div", { class: "matrix-scroll" }, table);
}

// Best first. Moving an option (a button, the keyboard or a drag) answers with the whole
// order; "Keep this order" answers with it unchanged.
export function rankingControl(q) {
  const key = q.field_key;
  const options = config(q).options || [];
  const given = state.answers[key];
  let order = Array.isArray(given) && given.length ? [...given, ...options.filter((o) => !given.includes(o))] : [...options];
  const list = el("ol", { class: "ranking" });
  let dragged = null;
  const commit = () => setAnswer(key, [...order]);
  const move = (from, to, focus) => {
    if (to < 0 || to >= order.length) return;
    const [item] = order.splice(from, 1);
    order.splice(to, 0, item);
    draw();
    commit();
    list.querySelectorAll("li")[to].querySelector(`button.${focus}`)?.focus();
  };
  function draw() {
    list.replaceChildren(
      ...order.map((option, i) => {
        const item = el("li", { draggable: "true", class: "rank-item" }, el("span", { class: "rank-label", text: String(option) }));
        item.append(
          el("button", { type: "button", class: "secondary up", "aria-label": `Move ${option} up`, disabled: i === 0, text: "↑", onclick: () => move(i, i - 1, "up") }),
          el("button", { type: "button", class: "secondary down", "aria-label": `Move ${option} down`, disabled: i === order.length - 1, text: "↓", onclick: () => move(i, i + 1, "down") }),
        );
        item.addEventListener("dragstart", (e) => {
          dragged = i;
          e.dataTransfer.effectAllowed = "move";
        });
        item.addEventListener("dragover", (e) => e.preventDefault());
        item.addEventListener("drop", (e) => {
          e.preventDefault();
          if (dragged !== null && dragged !== i) move(dragged, i, "up");
          dragged = null;
        });
        return item;
      }),
    );
  }
  draw();
  const keep = el("button", { type: "button", class: "secondary keep", text: "Keep this order", onclick: commit });
  return el("div", { class: "ranking-box" }, list, keep);
}

export function partsControl(q) {
  const key = q.field_key;
  const fields = config(q).fields || {};
  const given = state.answers[key] && typeof state.answers[key] === "object" ? state.answers[key] : {};
  const box = el("div", { class: "parts" });
  const inputs = [];
  for (const [name, label, autocomplete, type, requiredByDefault] of PARTS[q.type]) {
    const setting = fields[name] || {};
    if (setting.show === false) continue;
    const required = setting.required ?? requiredByDefault;
    const id = `input-${key}-${name}`;
    const input = el("input", { id, name: `${key}.${name}`, type, autocomplete, required, "aria-describedby": `error-${key}`, value: given[name] ?? null });
    inputs.push([name, input]);
    box.append(el("div", { class: "part" }, el("label", { for: id, text: required ? `${label} *` : label }), input));
  }
  const read = () => {
    const value = Object.create(null);
    for (const [name, input] of inputs) if (input.value.trim() !== "") value[name] = input.value.trim();
    return value;
  };
  for (const [, input] of inputs) input.addEventListener("change", () => setAnswer(key, read()));
  return box;
}

export function dateRangeControl(q) {
  const c = config(q);
  const key = q.field_key;
  const given = state.answers[key] || {};
  const box = el("div", { class: "parts date-range" });
  const inputs = ["start", "end"].map((part) => {
    const id = `input-${key}-${part}`;
    const input = el("input", { type: "date", id, min: c.min_date ?? null, max: c.max_date ?? null, value: given[part] ?? null, "aria-describedby": `error-${key}` });
    box.append(el("div", { class: "part" }, el("label", { for: id, text: part === "start" ? "From" : "To" }), input));
    return input;
  });
  const read = () => (inputs[0].value && inputs[1].value ? { start: inputs[0].value, end: inputs[1].value } : null);
  for (const input of inputs) input.addEventListener("change", () => setAnswer(key, read()));
  return box;
}

export function consentControl(q) {
  const c = config(q);
  const key = q.field_key;
  const id = `input-${key}`;
  const input = el("input", { type: "checkbox", id, name: key, required: q.required, checked: state.answers[key] === true, "aria-describedby": `error-${key}` });
  input.addEventListener("change", () => setAnswer(key, input.checked ? true : null));
  const label = el("label", { for: id, text: c.text || "" });
  const link = c.link_url ? el("a", { href: c.link_url, target: "_blank", rel: "noopener", text: "Read the terms" }) : null;
  return el("div", { class: "consent" }, input, label, link ? el("p", {}, link) : null);
}
