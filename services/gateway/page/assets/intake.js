// The intake page: renders the link's questions from the form embedded in the page, applies
// conditions and calculated values as the respondent answers (form-rules.js, the server's
// rules), saves each answer as it is given (start, PUT per answer, uploads), records voice
// answers as 16 kHz WAV (with live transcription over a WebSocket when the link asks for it)
// and submits. No framework; every control is a native, labelled form element.
import { evaluateForm, isAnswered } from "./form-rules.js";

const form = JSON.parse(document.getElementById("form-data").textContent);
const app = document.getElementById("app");
const slug = app.dataset.slug;
const base = `/i/${slug}`;
const storeKey = `feedback-response:${slug}`;
// The form names a question's type `response_type`, as the API does.
const questions = form.questions.map((q) => ({ ...q, type: q.response_type }));
const settings = form.settings || {};

const saved = load();
const state = {
  session: saved && saved.uuid ? { uuid: saved.uuid, token: saved.token } : null,
  // Typed values by field_key, as last saved here (a reload shows them again).
  answers: Object.assign(Object.create(null), saved?.answers || {}),
  media: Object.create(null), // stored file and recording answers by field_key
  pending: new Set(), // saves and uploads under way
  chains: new Map(), // field_key -> its latest save: saves of one answer go in order
  timers: new Map(),
  sections: new Map(),
};

function has(object, key) {
  return Object.prototype.hasOwnProperty.call(object, key);
}

// Work that must end before a submit (saves and uploads).
function track(promise) {
  state.pending.add(promise);
  promise.finally(() => state.pending.delete(promise));
  return promise;
}

function load() {
  try {
    return JSON.parse(localStorage.getItem(storeKey) || "null");
  } catch {
    return null;
  }
}

function persist() {
  try {
    if (state.session) {
      localStorage.setItem(storeKey, JSON.stringify({ ...state.session, answers: state.answers }));
    } else {
      localStorage.removeItem(storeKey);
    }
  } catch {
    // Private browsing: answers are still saved on the server as they are given.
  }
}

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function announce(message) {
  const status = document.getElementById("status");
  status.textContent = "";
  requestAnimationFrame(() => (status.textContent = message));
}

// --- the API -----------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, body) {
    super(body?.error?.message || `The server answered ${status}.`);
    this.status = status;
    this.code = body?.error?.code;
    this.details = body?.error?.details || {};
  }
}

async function call(method, path, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (state.session && path.includes("/responses/") && !path.endsWith("/responses/")) {
    init.headers["X-Response-Token"] = state.session.token;
  }
  if (body instanceof Blob || body instanceof ArrayBuffer) {
    init.body = body;
  } else if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, { error: { message: "You seem to be offline. Your answer will be saved when you are back." } });
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // A proxy's error page, not the API's.
  }
  if (!response.ok) throw new ApiError(response.status, json);
  return json;
}

let starting = null;
async function started() {
  if (state.session) return state.session;
  if (!starting) {
    starting = call("POST", `${base}/responses/`, {}).then((r) => {
      state.session = { uuid: r.uuid, token: r.token };
      persist();
      return state.session;
    });
    starting.finally(() => (starting = null));
  }
  return starting;
}

// A response kept from an earlier visit that is gone (expired, or submitted from another
// tab): a new one starts and the answers given so far are saved into it.
function forgetSession(error) {
  const gone = error.status === 404 && error.message === "No such response.";
  if (!gone && error.code !== "RESPONSE_ALREADY_SUBMITTED") return false;
  state.session = null;
  persist();
  return true;
}

async function onResponse(work, { replay = true } = {}) {
  await started();
  try {
    return await work(state.session);
  } catch (error) {
    if (!replay || !forgetSession(error)) throw error;
    const s = await started();
    for (const [key, value] of Object.entries(state.answers)) {
      await call("PUT", `${base}/responses/${s.uuid}/answers/${key}/`, { value }).catch(() => {});
    }
    return work(state.session);
  }
}

// --- saving answers ------------------------------------------------------------------------------

function showError(key, message) {
  const section = state.sections.get(key);
  if (!section) return;
  const box = section.querySelector(".error");
  box.textContent = message || "";
  section.classList.toggle("invalid", Boolean(message));
  for (const input of section.querySelectorAll("input, textarea")) {
    if (message) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }
}

function showSaved(key, text) {
  const section = state.sections.get(key);
  if (section) section.querySelector(".saved").textContent = text;
}

function setAnswer(key, value, { delay = 0 } = {}) {
  if (value === "" || (Array.isArray(value) && value.length === 0)) value = null;
  if (value === null) delete state.answers[key];
  else state.answers[key] = value;
  persist();
  refresh();
  clearTimeout(state.timers.get(key));
  state.timers.delete(key);
  if (delay) state.timers.set(key, setTimeout(() => save(key), delay));
  else save(key);
}

// Saves the answer's current value after any save of it still under way.
function save(key) {
  state.timers.delete(key);
  const previous = state.chains.get(key) || Promise.resolve();
  const next = previous.then(() => saveNow(key, has(state.answers, key) ? state.answers[key] : null));
  state.chains.set(key, next);
  return track(next);
}

async function saveNow(key, value) {
  showSaved(key, "Saving…");
  try {
    const answer = await onResponse((s) =>
      call("PUT", `${base}/responses/${s.uuid}/answers/${key}/`, { value }),
    );
    showError(key, "");
    showSaved(key, value === null ? "" : "Saved");
    showFollowUp(key, answer.follow_up);
  } catch (error) {
    showSaved(key, "");
    showError(key, error.details?.[key] ? `This answer ${error.details[key]}.` : error.message);
  }
}

async function flushSaves() {
  for (const [key, timer] of [...state.timers]) {
    clearTimeout(timer);
    save(key);
  }
  while (state.pending.size) await Promise.allSettled([...state.pending]);
}

function showFollowUp(key, prompt) {
  const section = state.sections.get(key);
  const box = section?.querySelector(".follow-up");
  if (!box) return;
  box.replaceChildren();
  if (!prompt) return;
  const id = `follow-${key}`;
  const input = el("textarea", { id, rows: 2 });
  const send = el("button", { type: "button", class: "secondary", text: "Send" });
  send.addEventListener("click", async () => {
    if (!isAnswered(input.value)) return input.focus();
    send.disabled = true;
    try {
      const answer = await onResponse((s) =>
        call("POST", `${base}/responses/${s.uuid}/answers/${key}/follow_ups/`, { value: input.value }),
      );
      showFollowUp(key, answer.follow_up);
      announce("Thank you for the detail.");
    } catch (error) {
      send.disabled = false;
      showError(key, error.message);
    }
  });
  box.append(el("label", { for: id, class: "follow-prompt", text: prompt }), input, send);
  announce(`A follow-up question: ${prompt}`);
}

// --- controls --------------------------------------------------------------------------------------

function config(q) {
  return q.configuration || {};
}

function choiceGroup(q, options, { multiple = false, className = "choices" } = {}) {
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

function ratingControl(q) {
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

function mediaElement(url, type, alt) {
  if (!url) return null;
  if (isVideo(url, type)) {
    return el("video", { src: url, muted: true, playsinline: true, preload: "metadata", "aria-label": alt, controls: true });
  }
  return el("img", { src: url, alt: alt || "", loading: "lazy", decoding: "async" });
}

function textInput(q, { multiline = false, type = "text", maxLength = null, delay = 600 } = {}) {
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
  if (type === "email") input.setAttribute("autocomplete", "email");
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

function fileControl(q) {
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
      const answer = await onResponse((s) =>
        call("POST", `${base}/responses/${s.uuid}/files/${q.field_key}/`, file, {
          "Content-Type": file.type || "application/octet-stream",
          "X-File-Name": encodeURIComponent(file.name),
        }),
      );
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

// --- voice ----------------------------------------------------------------------------------------

function wavOf(chunks) {
  const length = chunks.reduce((n, c) => n + c.length, 0);
  const buffer = new ArrayBuffer(44 + length * 2);
  const view = new DataView(buffer);
  const text = (at, s) => [...s].forEach((ch, i) => view.setUint8(at + i, ch.charCodeAt(0)));
  text(0, "RIFF");
  view.setUint32(4, 36 + length * 2, true);
  text(8, "WAVEfmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 16000, true);
  view.setUint32(28, 32000, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, "data");
  view.setUint32(40, length * 2, true);
  let at = 44;
  for (const chunk of chunks) for (const s of chunk) view.setInt16((at += 2) - 2, s, true);
  return new Blob([buffer], { type: "audio/wav" });
}

function clock(seconds) {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function voiceControl(q) {
  const c = config(q);
  const key = q.field_key;
  // At most what 10 MiB of 16 kHz WAV holds (the API's limit for a recording).
  const maxSeconds = Math.min(Number(c.max_duration || 120), 320);
  const typed = q.type === "voice_text_fallback" || q.fallback_to_text !== false;
  const box = el("div", { class: "voice" });
  const record = el("button", { type: "button", class: "record", "aria-pressed": "false", text: "Record your answer" });
  const timer = el("span", { class: "timer", role: "timer", "aria-live": "off", text: `0:00 / ${clock(maxSeconds)}` });
  const live = el("p", { class: "live", "aria-live": "polite", id: `live-${key}` });
  const playback = el("div", { class: "playback" });
  const textArea = typed ? textInput(q, { multiline: true, maxLength: c.max_characters || null }) : null;
  const textLabel = typed ? el("label", { for: `input-${key}`, class: "type-label", text: "Or type your answer" }) : null;
  const textBox = typed ? el("div", { class: "typed", hidden: true }, textLabel, textArea) : null;
  const switchButton = typed ? el("button", { type: "button", class: "link", text: "Type instead" }) : null;
  let recording = null;
  let starting = false;

  function useText(reason) {
    if (!textBox) return;
    textBox.hidden = false;
    if (reason) live.textContent = reason;
    switchButton.hidden = true;
  }
  switchButton?.addEventListener("click", () => {
    useText();
    textArea.focus();
  });

  async function start() {
    if (!navigator.mediaDevices?.getUserMedia) {
      return typed ? useText("Recording is not available here: please type your answer.") : (live.textContent = "Recording is not available in this browser.");
    }
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true } });
    } catch {
      return typed ? useText("No microphone could be used: please type your answer.") : (live.textContent = "No microphone could be used.");
    }
    const context = new AudioContext();
    let node;
    let source;
    try {
      await context.resume();
      await context.audioWorklet.addModule(app.dataset.worklet);
      source = context.createMediaStreamSource(stream);
      node = new AudioWorkletNode(context, "recorder-16k");
    } catch (error) {
      stream.getTracks().forEach((t) => t.stop());
      await context.close();
      throw error;
    }
    const chunks = [];
    let socket = null;
    if (settings.live_transcription) socket = await openLive(key, live);
    node.port.onmessage = (event) => {
      const pcm = new Int16Array(event.data);
      chunks.push(pcm);
      if (socket?.readyState === WebSocket.OPEN) socket.send(event.data);
      const seconds = chunks.reduce((n, ch) => n + ch.length, 0) / 16000;
      timer.textContent = `${clock(seconds)} / ${clock(maxSeconds)}`;
      if (seconds >= maxSeconds) stop();
    };
    source.connect(node);
    recording = { stream, context, node, chunks, socket };
    record.textContent = "Stop recording";
    record.setAttribute("aria-pressed", "true");
    live.textContent = settings.live_transcription ? "Listening…" : "Recording…";
  }

  function stop() {
    if (!recording) return;
    return track(finish());
  }

  async function finish() {
    const { stream, context, node, chunks, socket } = recording;
    recording = null;
    node.port.onmessage = null;
    stream.getTracks().forEach((t) => t.stop());
    await context.close();
    record.textContent = "Record again";
    record.setAttribute("aria-pressed", "false");
    const wav = wavOf(chunks);
    playback.replaceChildren(el("audio", { controls: true, src: URL.createObjectURL(wav), "aria-label": "Your recording" }));
    showSaved(key, "Saving your recording…");
    try {
      let answer = null;
      if (socket?.readyState === WebSocket.OPEN) answer = await finishLive(socket);
      if (!answer) {
        answer = await onResponse((s) => call("POST", `${base}/responses/${s.uuid}/audio/${key}/`, wav, { "Content-Type": "audio/wav" }));
      }
      state.media[key] = answer;
      delete state.answers[key];
      showError(key, "");
      showSaved(key, `Recording saved (${clock(answer.duration || 0)})`);
      if (answer.transcription) live.textContent = answer.transcription;
      showFollowUp(key, answer.follow_up);
      refresh();
    } catch (error) {
      showSaved(key, "");
      showError(key, error.details?.[key] ? `This recording ${error.details[key]}.` : error.message);
    }
  }

  record.addEventListener("click", () => {
    if (recording) return stop();
    if (starting) return;
    starting = true;
    start()
      .catch((e) => showError(key, e.message))
      .finally(() => (starting = false));
  });
  box.append(el("div", { class: "recorder" }, record, timer), live, playback);
  if (switchButton) box.append(switchButton);
  if (textBox) box.append(textBox);
  if (typed && !navigator.mediaDevices?.getUserMedia) useText("Recording is not available here: please type your answer.");
  return box;
}

async function openLive(key, live) {
  try {
    const s = await started();
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}${base}/responses/${s.uuid}/live/${key}/?token=${encodeURIComponent(s.token)}`;
    const socket = new WebSocket(url);
    socket.binaryType = "arraybuffer";
    socket.finalAnswer = new Promise((resolve) => {
      socket.addEventListener("message", (event) => {
        const message = JSON.parse(event.data);
        if (message.type === "partial") live.textContent = message.text || "Listening…";
        if (message.type === "final") {
          live.textContent = message.text;
          resolve(message.answer);
        }
      });
      socket.addEventListener("close", () => resolve(null));
    });
    await new Promise((resolve, reject) => {
      socket.addEventListener("open", resolve, { once: true });
      socket.addEventListener("error", reject, { once: true });
    });
    return socket;
  } catch {
    return null;
  }
}

async function finishLive(socket) {
  socket.send(JSON.stringify({ type: "end" }));
  const answer = await socket.finalAnswer;
  socket.close();
  return answer;
}

// --- questions ----------------------------------------------------------------------------------

function control(q) {
  const c = config(q);
  switch (q.type) {
    case "voice":
    case "voice_text_fallback":
      return voiceControl(q);
    case "text":
      return textInput(q, { multiline: true });
    case "email":
      return textInput(q, { type: "email", delay: 900 });
    case "number":
      return textInput(q, { type: "number", delay: 600 });
    case "date":
      return textInput(q, { type: "date", delay: 0 });
    case "multiple_choice":
      return choiceGroup(
        q,
        (c.options || []).map((o) => ({ value: o, label: String(o) })),
        { multiple: Boolean(c.allow_multiple) },
      );
    case "rating":
      return ratingControl(q);
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
      return el("div", { class: "help" }, c.content ? el("p", { text: c.content }) : null, mediaElement(c.media_url, null, ""));
    default:
      return el("p", { text: "This question cannot be shown here." });
  }
}

// Groups of inputs are fieldsets with the prompt as legend; single inputs are labelled by it.
const GROUPED = new Set(["multiple_choice", "rating", "yes_no", "image_choice"]);

// The number is set as the question shows (refresh): conditions may hide some before it.
function questionSection(q) {
  const key = q.field_key;
  const grouped = GROUPED.has(q.type);
  const heading = [el("span", { class: "number", "aria-hidden": "true", text: q.type === "help_block" ? "i" : "" }), el("span", { class: "prompt", text: q.prompt })];
  if (q.required) heading.push(el("span", { class: "required", "aria-hidden": "true", text: " *" }), el("span", { class: "visually-hidden", text: " (required)" }));
  let title;
  if (grouped) title = el("legend", {}, ...heading);
  else if (["text", "email", "number", "date", "file_upload"].includes(q.type)) title = el("label", { for: `input-${key}`, class: "title" }, ...heading);
  else title = el("h2", { class: "title", id: `title-${key}` }, ...heading);
  const tools = el("div", { class: "tools" });
  if (settings.tts_enabled && q.uuid) {
    tools.append(el("button", { type: "button", class: "listen secondary", "aria-label": `Listen to: ${q.prompt}`, text: "▶ Listen", onclick: () => new Audio(`${base}/questions/${q.uuid}/speech.wav`).play() }));
  }
  const body = control(q);
  const wrapper = grouped ? el("fieldset", { class: "question", id: `q-${key}`, "aria-describedby": `error-${key}` }, title, tools, body) : el("section", { class: "question", id: `q-${key}`, "aria-labelledby": q.type === "voice" || q.type === "voice_text_fallback" || q.type === "help_block" || q.type === "calculated" ? `title-${key}` : null }, title, tools, body);
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
  const { shown, calculated } = evaluateForm(questions, answers);
  let total = 0;
  let done = 0;
  let number = 0; // what the respondent sees is numbered 1, 2, 3 whatever is hidden between
  questions.forEach((q, i) => {
    const section = state.sections.get(q.field_key);
    if (!section) return;
    section.hidden = !shown[i];
    if (shown[i] && q.type !== "help_block") section.querySelector(".number").textContent = String(++number);
    if (q.type === "calculated") {
      const value = calculated[q.field_key];
      section.querySelector("output").textContent = value === null || value === undefined ? "—" : String(Math.round(value * 1e6) / 1e6);
    }
    if (!shown[i] || q.type === "calculated" || q.type === "help_block") return;
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
  for (const q of questions) list.append(questionSection(q));
  list.append(el("p", { id: "form-error", class: "form-error", role: "alert" }), el("button", { type: "submit", id: "submit", class: "primary", text: "Send my answers" }));
  app.replaceChildren(progress, list, el("p", { id: "status", class: "visually-hidden", role: "status" }));
  refresh();
}

render();
