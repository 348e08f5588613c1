// The intake page's controls for answers given by choosing, typing or uploading: choices,
// ratings and the other scales, text, numbers, dates and times, lists, sliders and files. Each
// is a native, labelled form element that saves its answer as it changes (page.js).
import { config, el, refresh, setAnswer, showError, showSaved, state, track, uploadFile } from "./page.js";

export function choiceGroup(q, options, { multiple = false, className = "choices" } = {}) {
  const group = el("div", { class: className });
  const name = `answer-${q.field_key}`;
  const selected = state.answers[q.field_key];
  options.forEach((option, i) => {
    const id = `${name}-${i}`;
    const checked = multiple ? Array.isArray(selected) && selected.includes(option.value) : selected === option.value;
    const input = el("input", {
      type: multiple ? "checkbox" : "radio",
      id,
      name,
      value: String(i),
      checked,
      "aria-required": q.required && !multiple ? "true" : null,
    });
    input.addEventListener("change", () => {
      if (multiple) {
        const chosen = options.filter((_, j) => group.querySelector(`#${name}-${j}`).checked).map((o) => o.value);
        setAnswer(q.field_key, chosen);
      } else {
        setAnswer(q.field_key, option.value);
      }
    });
    const label = el("label", { for: id, class: option.class || "" });
    if (option.media) label.append(option.media);
    label.append(el("span", { class: "choice-text", text: option.label }));
    if (option.hint) label.setAttribute("title", option.hint);
    group.append(el("div", { class: "choice" }, input, label));
  });
  return group;
}

const EMOJIS = ["😞", "🙁", "😐", "🙂", "😄"];

export function ratingControl(q) {
  const c = config(q);
  const scale = c.scale_type || "stars";
  const low = scale === "nps" ? 0 : 1;
  const high = scale === "nps" ? 10 : Number(c.max_value || 5);
  const options = [];
  for (let v = low; v <= high; v++) {
    let label = String(v);
    let media = null;
    if (scale === "stars") {
      label = `${v} ${v === 1 ? "star" : "stars"}`;
      media = el("span", { class: "star", "aria-hidden": "true", text: "★" });
    } else if (scale === "emojis") {
      const face = EMOJIS[Math.round(((v - low) / Math.max(1, high - low)) * (EMOJIS.length - 1))];
      label = `${v} of ${high}`;
      media = el("span", { class: "emoji", "aria-hidden": "true", text: face });
    }
    options.push({ value: v, label, media, class: `rating-${scale}` });
  }
  const group = choiceGroup(q, options, { className: `choices rating rating-${scale}` });
  if (scale === "nps") {
    group.append(el("p", { class: "scale-ends", "aria-hidden": "true" }, el("span", { text: "Not likely" }), el("span", { text: "Very likely" })));
  }
  return group;
}

function isVideo(url, type) {
  return type === "video" || /\.(mp4|webm|ogv|mov)(\?|$)/i.test(url || "");
}

export function mediaElement(url, type, alt) {
  if (!url) return null;
  if (isVideo(url, type)) {
    return el("video", { src: url, muted: true, playsinline: true, preload: "metadata", "aria-label": alt, controls: true });
  }
  return el("img", { src: url, alt: alt || "", loading: "lazy", decoding: "async" });
}

export function textInput(q, { multiline = false, type = "text", maxLength = null, delay = 600 } = {}) {
  const attributes = {
    id: `input-${q.field_key}`,
    name: q.field_key,
    required: q.required,
    "aria-describedby": `error-${q.field_key}`,
    maxlength: maxLength,
  };
  const input = multiline ? el("textarea", { ...attributes, rows: 4 }) : el("input", { ...attributes, type });
  const c = config(q);
  if (type === "number") {
    for (const name of ["min", "max", "step"]) if (c[name] !== undefined) input.setAttribute(name, c[name]);
    input.setAttribute("inputmode", Number.isInteger(c.step ?? 1) ? "numeric" : "decimal");
  }
  const autocomplete = { email: "email", tel: "tel", url: "url" }[type];
  if (autocomplete) input.setAttribute("autocomplete", autocomplete);
  const given = state.answers[q.field_key];
  if (given !== undefined && given !== null) input.value = String(given);
  const read = () => {
    if (type === "number") return input.value === "" ? null : Number(input.value);
    return input.value;
  };
  input.addEventListener("input", () => setAnswer(q.field_key, read(), { delay }));
  input.addEventListener("change", () => setAnswer(q.field_key, read()));
  return input;
}

export function fileControl(q) {
  const c = config(q);
  const id = `input-${q.field_key}`;
  const input = el("input", { type: "file", id, accept: (c.allowed_types || []).join(",") || null, "aria-describedby": `error-${q.field_key}` });
  const limitMb = Math.min(Number(c.max_size_mb || 25), 25);
  input.addEventListener("change", () => track(upload()));
  async function upload() {
    const file = input.files[0];
    if (!file) return;
    if (file.size > limitMb * 1024 * 1024) {
      return showError(q.field_key, `This file is larger than ${limitMb} MB.`);
    }
    showSaved(q.field_key, "Uploading…");
    try {
      const answer = await uploadFile(q.field_key, file, file.type || "application/octet-stream", file.name);
      state.media[q.field_key] = answer;
      showError(q.field_key, "");
      showSaved(q.field_key, `Uploaded ${answer.value.file_name} (${Math.ceil(answer.value.size_bytes / 1024)} KB)`);
      refresh();
    } catch (error) {
      showSaved(q.field_key, "");
      showError(q.field_key, error.details?.[q.field_key] ? `This file ${error.details[q.field_key]}.` : error.message);
    }
  }
  return input;
}

// A native select: typing letters finds an option, whether `searchable` or not.
export function selectControl(q) {
  const key = q.field_key;
  const select = el("select", { id: `input-${key}`, name: key, required: q.required, "aria-describedby": `error-${key}` });
  select.append(el("option", { value: "", text: "Choose…" }));
  const options = config(q).options || [];
  options.forEach((option, i) => select.append(el("option", { value: String(i), text: String(option), selected: state.answers[key] === option })));
  select.addEventListener("change", () => setAnswer(key, select.value === "" ? null : options[Number(select.value)]));
  return select;
}

// The integer scales: nps (0-10), opinion_scale, csat (1-5) and ces (1-7), as radio buttons
// with their end labels.
// The lowest and highest value of an integer scale (common/questions/scale_answers.cc).
export function scaleRange(q) {
  const c = config(q);
  if (q.type === "nps" || (q.type === "rating" && c.scale_type === "nps")) return [0, 10];
  if (q.type === "rating") return [1, Number(c.max_value || 5)];
  if (q.type === "opinion_scale") {
    const low = c.start_at_one === false ? 0 : 1;
    return [low, low + Number(c.steps || 5) - 1];
  }
  if (q.type === "ces") return [1, 7];
  return [1, 5]; // csat
}

export function scaleControl(q) {
  const c = config(q);
  const [low, high] = scaleRange(q);
  let labels = {};
  if (q.type === "nps") labels = { left: c.lower_label || "Not likely", right: c.upper_label || "Very likely" };
  else if (q.type === "opinion_scale") labels = c.labels || {};
  else if (q.type === "ces") labels = { left: "Very difficult", right: "Very easy" };
  const named = q.type === "csat" ? c.labels || ["Very unsatisfied", "Unsatisfied", "Neutral", "Satisfied", "Very satisfied"] : null;
  const options = [];
  for (let v = low; v <= high; v++) {
    options.push({ value: v, label: String(v), hint: named ? named[v - 1] : null });
  }
  const group = choiceGroup(q, options, { className: `choices rating scale-${q.type}` });
  if (named) {
    group.querySelectorAll(".choice-text").forEach((span, i) => (span.textContent = `${i + 1} ${named[i]}`));
  }
  const ends = [labels.left, labels.center, labels.right];
  if (ends.some(Boolean)) {
    group.append(el("p", { class: "scale-ends", "aria-hidden": "true" }, ...ends.map((text) => el("span", { text: text || "" }))));
  }
  return group;
}

// A slider shows its value beside it; a range is two sliders, low and high.
export function sliderControl(q) {
  const c = config(q);
  const key = q.field_key;
  const [min, max, step] = [Number(c.min ?? 0), Number(c.max ?? 100), Number(c.step ?? 1)];
  const unit = c.unit ? ` ${c.unit}` : "";
  const given = state.answers[key];
  const box = el("div", { class: "slider" });
  const handles = c.range ? ["low", "high"] : [""];
  const inputs = handles.map((part, i) => {
    const id = part ? `input-${key}-${part}` : `input-${key}`;
    const start = Array.isArray(given) ? given[i] : typeof given === "number" ? given : i ? max : min;
    // One slider is named by the question's prompt, two by their labels.
    const input = el("input", { type: "range", id, min, max, step, value: start, "aria-labelledby": part ? null : `title-${key}`, "aria-describedby": `error-${key}` });
    const shown = el("output", { for: id, text: `${start}${unit}` });
    if (part) box.append(el("label", { for: id, class: "part-label", text: part === "low" ? "From" : "To" }));
    box.append(el("div", { class: "slider-row" }, input, shown));
    input.addEventListener("input", () => (shown.textContent = `${input.value}${unit}`));
    input.addEventListener("change", () => {
      if (!c.range) return setAnswer(key, Number(input.value));
      let [low, high] = inputs.map((x) => Number(x.value));
      if (low > high) [low, high] = [high, low];
      setAnswer(key, [low, high]);
    });
    return input;
  });
  return box;
}

// A date and time in the respondent's zone, sent as ISO 8601 with its offset.
export function datetimeControl(q) {
  const key = q.field_key;
  const input = el("input", { type: "datetime-local", id: `input-${key}`, name: key, required: q.required, "aria-describedby": `error-${key}` });
  const given = state.answers[key];
  if (typeof given === "string" && !Number.isNaN(Date.parse(given))) {
    const d = new Date(given);
    input.value = new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  }
  input.addEventListener("change", () => {
    if (!input.value) return setAnswer(key, null);
    const local = new Date(input.value);
    const offset = -local.getTimezoneOffset();
    const sign = offset >= 0 ? "+" : "-";
    const pad = (n) => String(Math.floor(Math.abs(n))).padStart(2, "0");
    setAnswer(key, `${input.value}:00${sign}${pad(offset / 60)}:${pad(offset % 60)}`);
  });
  return input;
}
