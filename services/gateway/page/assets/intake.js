// The intake page: renders the link's questions from the form embedded in the page, applies
// conditions, recall and calculated values as the respondent answers (form-rules.js, the
// server's rules), fills hidden fields and prefills answers from the page's query string,
// saves each answer as it is given (page.js) and submits. No framework; every control is a
// native, labelled form element (controls.js, structured-controls.js, signature.js, voice.js).
import { choiceGroup, datetimeControl, fileControl, mediaElement, ratingControl, scaleControl, scaleRange, selectControl, sliderControl, textInput } from "./controls.js";
import { evaluateForm, instantMicros, isAnswered, isCalendarDate, isClockTime } from "./form-rules.js";
import { announce, app, base, call, config, el, flushSaves, form, has, onRefresh, onResponse, persist, questions, setPrefilled, settings, showError, state } from "./page.js";
import { signatureControl } from "./signature.js";
import { consentControl, dateRangeControl, matrixControl, partsControl, rankingControl } from "./structured-controls.js";
import { voiceControl } from "./voice.js";

function control(q) {
  const c = config(q);
  switch (q.type) {
    case "voice":
    case "voice_text_fallback":
      return voiceControl(q);
    case "text":
      return textInput(q, { multiline: true });
    case "long_text":
      return textInput(q, { multiline: true, maxLength: c.max_characters || 5000 });
    case "email":
      return textInput(q, { type: "email", delay: 900 });
    case "phone_number":
      return textInput(q, { type: "tel", delay: 900 });
    case "url":
      return textInput(q, { type: "url", delay: 900 });
    case "number":
      return textInput(q, { type: "number", delay: 600 });
    case "date":
      return textInput(q, { type: "date", delay: 0 });
    case "time":
      return textInput(q, { type: "time", delay: 0 });
    case "datetime":
      return datetimeControl(q);
    case "date_range":
      return dateRangeControl(q);
    case "multiple_choice":
      return choiceGroup(
        q,
        (c.options || []).map((o) => ({ value: o, label: String(o) })),
        { multiple: Boolean(c.allow_multiple) },
      );
    case "dropdown":
      return selectControl(q);
    case "rating":
      return ratingControl(q);
    case "nps":
    case "opinion_scale":
    case "csat":
    case "ces":
      return scaleControl(q);
    case "slider":
      return sliderControl(q);
    case "matrix":
      return matrixControl(q);
    case "ranking":
      return rankingControl(q);
    case "contact_info":
    case "address":
      return partsControl(q);
    case "consent":
      return consentControl(q);
    case "signature":
      return signatureControl(q);
    case "yes_no":
      return choiceGroup(q, [{ value: true, label: "Yes" }, { value: false, label: "No" }], { className: "choices yes-no" });
    case "image_choice":
      return choiceGroup(
        q,
        (c.cards || []).map((card) => ({ value: card.id, label: card.label, media: mediaElement(card.media_url, card.media_type, ""), class: "card" })),
        { className: "choices cards" },
      );
    case "file_upload":
      return fileControl(q);
    case "calculated":
      return el("output", { class: "calculated", id: `output-${q.field_key}`, "aria-live": "polite", text: "—" });
    case "help_block":
      return el("div", { class: "help" }, c.content ? el("p", { class: "help-content", text: c.content }) : null, mediaElement(c.media_url, null, ""));
    default:
      return el("p", { text: "This question cannot be shown here." });
  }
}

// Groups of inputs are fieldsets with the prompt as legend; single inputs are labelled by it.
const GROUPED = new Set(["multiple_choice", "rating", "yes_no", "image_choice", "nps", "opinion_scale", "csat", "ces", "matrix", "contact_info", "address", "date_range", "ranking", "slider"]);
// Single inputs labelled by the prompt.
const LABELLED = new Set(["text", "long_text", "email", "phone_number", "url", "number", "date", "time", "datetime", "dropdown", "file_upload"]);

// The number is set as the question shows (refresh): conditions may hide some before it.
function questionSection(q) {
  const key = q.field_key;
  const grouped = GROUPED.has(q.type);
  const heading = [el("span", { class: "number", "aria-hidden": "true", text: q.type === "help_block" ? "i" : "" }), el("span", { class: "prompt", text: q.prompt })];
  if (q.required) heading.push(el("span", { class: "required", "aria-hidden": "true", text: " *" }), el("span", { class: "visually-hidden", text: " (required)" }));
  let title;
  if (grouped) title = el("legend", { id: `title-${key}` }, ...heading);
  else if (LABELLED.has(q.type)) title = el("label", { for: `input-${key}`, class: "title" }, ...heading);
  else title = el("h2", { class: "title", id: `title-${key}` }, ...heading);
  const tools = el("div", { class: "tools" });
  if (settings.tts_enabled && q.uuid) {
    tools.append(el("button", { type: "button", class: "listen secondary", "aria-label": `Listen to: ${q.prompt}`, text: "▶ Listen", onclick: () => new Audio(`${base}/questions/${q.uuid}/speech.wav`).play() }));
  }
  const body = control(q);
  const wrapper = grouped ? el("fieldset", { class: "question", id: `q-${key}`, "aria-describedby": `error-${key}` }, title, tools, body) : el("section", { class: "question", id: `q-${key}`, "aria-labelledby": LABELLED.has(q.type) ? null : `title-${key}` }, title, tools, body);
  wrapper.append(el("p", { class: "error", id: `error-${key}`, role: "alert" }), el("p", { class: "saved", "aria-live": "polite" }), el("div", { class: "follow-up" }));
  state.sections.set(key, wrapper);
  return wrapper;
}

function valueFor(q) {
  if (has(state.media, q.field_key)) return "(uploaded)";
  return has(state.answers, q.field_key) ? state.answers[q.field_key] : null;
}

function refresh() {
  const answers = {};
  for (const q of questions) {
    if (has(state.answers, q.field_key)) answers[q.field_key] = state.answers[q.field_key];
  }
  const { shown, calculated, prompts, recall } = evaluateForm(questions, answers);
  const description = document.querySelector(".intro .description");
  if (description && settings.description) description.textContent = recall(settings.description);
  let total = 0;
  let done = 0;
  let number = 0; // what the respondent sees is numbered 1, 2, 3 whatever is hidden between
  questions.forEach((q, i) => {
    const section = state.sections.get(q.field_key);
    if (!section) return;
    section.hidden = !shown[i] || q.type === "hidden_field";
    section.querySelector(".prompt").textContent = prompts[q.field_key];
    const content = section.querySelector(".help-content");
    if (content) content.textContent = recall(config(q).content || "");
    if (shown[i] && q.type !== "help_block") section.querySelector(".number").textContent = String(++number);
    if (q.type === "calculated") {
      const value = calculated[q.field_key];
      section.querySelector("output").textContent = value === null || value === undefined ? "—" : String(Math.round(value * 1e6) / 1e6);
    }
    if (section.hidden || q.type === "calculated" || q.type === "help_block") return;
    total += 1;
    if (isAnswered(valueFor(q))) done += 1;
  });
  const bar = document.getElementById("progress");
  bar.setAttribute("aria-valuemax", String(total));
  bar.setAttribute("aria-valuenow", String(done));
  bar.setAttribute("aria-valuetext", `${done} of ${total} answered`);
  bar.querySelector(".fill").style.width = total ? `${(100 * done) / total}%` : "0";
  bar.querySelector(".label").textContent = `${done} of ${total} answered`;
}

async function submit(event) {
  event.preventDefault();
  const button = event.submitter || document.getElementById("submit");
  button.disabled = true;
  announce("Sending your answers…");
  try {
    await flushSaves();
    // One submit per response, whatever happens to its answer on the way back; a response
    // already submitted (an earlier click whose answer was lost) is done, not started anew.
    await onResponse(
      (s) => call("POST", `${base}/responses/${s.uuid}/submit/`, {}, { "Idempotency-Key": `submit-${s.uuid}` }),
      { replay: false },
    ).catch((error) => {
      if (error.code !== "RESPONSE_ALREADY_SUBMITTED") throw error;
    });
    state.session = null;
    state.answers = Object.create(null);
    persist();
    thankYou();
  } catch (error) {
    button.disabled = false;
    const keys = Object.keys(error.details || {}).filter((k) => state.sections.has(k));
    for (const key of keys) showError(key, error.code === "REQUIRED_ANSWER_MISSING" ? "Please answer this question." : `This answer ${error.details[key]}.`);
    const message = keys.length ? `Please check ${keys.length === 1 ? "one answer" : `${keys.length} answers`}.` : error.message;
    document.getElementById("form-error").textContent = message;
    announce(message);
    const first = keys.length && state.sections.get(keys[0]);
    if (first) first.querySelector("input, textarea, button")?.focus();
  }
}

function thankYou() {
  const message = settings.thankYouMessage || "Thanks for your response!";
  const done = el("section", { class: "thanks", tabindex: "-1" }, el("h2", { text: message }));
  if (settings.redirectUrl) {
    done.append(el("p", {}, el("a", { href: settings.redirectUrl, text: "Continue" })));
    setTimeout(() => location.assign(settings.redirectUrl), 3000);
  }
  app.replaceChildren(done, el("p", { id: "status", class: "visually-hidden", role: "status" }));
  // Focused, the heading is what a screen reader reads next.
  done.focus();
}

function render() {
  if (form.status !== "active") return; // the page already says the link is paused
  const list = el("form", { id: "questions", novalidate: true, onsubmit: submit });
  const progress = el("div", { id: "progress", class: "progress", role: "progressbar", "aria-label": "Progress", "aria-valuemin": "0" }, el("div", { class: "track" }, el("div", { class: "fill" })), el("span", { class: "label" }));
  prefill();
  for (const q of questions) if (q.type !== "hidden_field") list.append(questionSection(q));
  list.append(el("p", { id: "form-error", class: "form-error", role: "alert" }), el("button", { type: "submit", id: "submit", class: "primary", text: "Send my answers" }));
  app.replaceChildren(progress, list, el("p", { id: "status", class: "visually-hidden", role: "status" }));
  refresh();
}

// Values from the page's address (/i/{slug}?plan=pro&user_id=42): a hidden_field takes the
// parameter named after its field_key; a visible question is prefilled with it when the value
// is one the question takes. The server judges each again when it is saved, and a value it
// refuses is dropped (page.js).
function prefill() {
  const query = new URLSearchParams(location.search);
  for (const q of questions) {
    const text = query.get(q.field_key);
    if (text === null || text.trim() === "" || has(state.answers, q.field_key)) continue;
    const value = prefilled(q, text);
    if (value !== null) setPrefilled(q.field_key, value);
  }
}

function onStep(n, from, step) {
  const steps = (n - from) / step;
  return Math.abs(steps - Math.round(steps)) < 1e-9;
}

function withinNumber(n, min, max, step) {
  return Number.isFinite(n) && (min === undefined || n >= min) && (max === undefined || n <= max) && (!step || onStep(n, min ?? 0, step));
}

function isHttpUrl(text) {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "" && text.length <= 2048;
  } catch {
    return false;
  }
}

// `text` as a value the question takes (its type's rules, as far as the page can tell), or null.
function prefilled(q, text) {
  const c = config(q);
  const n = Number(text);
  switch (q.type) {
    case "hidden_field":
      return text.length <= 1000 ? text : null;
    case "text":
      return text.length <= 10000 ? text : null;
    case "long_text":
      return text.length <= Number(c.max_characters || 5000) ? text : null;
    case "email":
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) ? text : null;
    case "url":
      return isHttpUrl(text) ? text : null;
    case "phone_number":
      return /^\+?[\d\s().-]{4,40}$/.test(text) ? text : null;
    case "date":
      return isCalendarDate(text) ? text : null;
    case "time":
      return isClockTime(text) && (!c.min || text >= c.min) && (!c.max || text <= c.max) ? text : null;
    case "datetime":
      return instantMicros(text) !== null ? text : null;
    case "multiple_choice":
    case "dropdown":
      return (c.options || []).includes(text) ? text : null;
    case "yes_no":
      return text === "true" || text === "yes" ? true : text === "false" || text === "no" ? false : null;
    case "consent":
      return text === "true" || text === "yes" ? true : null;
    case "number":
      return withinNumber(n, c.min, c.max, c.step) ? n : null;
    case "slider":
      return !c.range && withinNumber(n, c.min ?? 0, c.max ?? 100, c.step ?? 1) ? n : null;
    case "rating":
    case "nps":
    case "opinion_scale":
    case "csat":
    case "ces": {
      const [low, high] = scaleRange(q);
      return Number.isInteger(n) && n >= low && n <= high ? n : null;
    }
    default:
      return null;
  }
}

onRefresh(refresh);

render();
