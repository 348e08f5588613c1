// What every part of the intake page shares: the form and its settings, the response's state
// (kept in localStorage across reloads), the API client, and saving answers as they are given.
// The controls (controls.js, structured-controls.js, signature.js, voice.js) and the page
// itself (intake.js) build on it.
import { isAnswered } from "./form-rules.js";

export const form = JSON.parse(document.getElementById("form-data").textContent);
export const app = document.getElementById("app");
export const slug = app.dataset.slug;
export const base = `/i/${slug}`;
const storeKey = `feedback-response:${slug}`;
// The form names a question's type `response_type`, as the API does.
export const questions = form.questions.map((q) => ({ ...q, type: q.response_type }));
export const settings = form.settings || {};

const saved = load();
export const state = {
  session: saved && saved.uuid ? { uuid: saved.uuid, token: saved.token } : null,
  // Typed values by field_key, as last saved here (a reload shows them again).
  answers: Object.assign(Object.create(null), saved?.answers || {}),
  media: Object.create(null), // stored file and recording answers by field_key
  pending: new Set(), // saves and uploads under way
  chains: new Map(), // field_key -> its latest save: saves of one answer go in order
  timers: new Map(),
  sections: new Map(),
  prefilled: new Set(), // keys answered from the page's address, saved when the response starts
  fromAddress: new Set(), // keys still holding the value from the address (not changed since)
};

export function has(object, key) {
  return Object.prototype.hasOwnProperty.call(object, key);
}

// Work that must end before a submit (saves and uploads).
export function track(promise) {
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

export function persist() {
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

export function el(tag, attributes = {}, ...children) {
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

export function announce(message) {
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

export async function call(method, path, body, headers = {}) {
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
export async function started() {
  if (state.session) return state.session;
  if (!starting) {
    starting = call("POST", `${base}/responses/`, {}).then(async (r) => {
      state.session = { uuid: r.uuid, token: r.token };
      persist();
      // Values from the page's address reach the response before anything else does.
      const prefilled = [...state.prefilled];
      state.prefilled.clear();
      await Promise.allSettled(prefilled.map((key) => save(key)));
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

export async function onResponse(work, { replay = true } = {}) {
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

export function showError(key, message) {
  const section = state.sections.get(key);
  if (!section) return;
  const box = section.querySelector(".error");
  box.textContent = message || "";
  section.classList.toggle("invalid", Boolean(message));
  for (const input of section.querySelectorAll("input, textarea, select")) {
    if (message) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }
}

export function showSaved(key, text) {
  const section = state.sections.get(key);
  if (section) section.querySelector(".saved").textContent = text;
}

export function setAnswer(key, value, { delay = 0 } = {}) {
  state.fromAddress.delete(key);
  if (!isAnswered(value) && typeof value !== "string") value = null; // [], {}: nothing chosen
  if (value === "") value = null;
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
    // The stored form (a phone in E.164, a country upper case, a datetime in UTC) is what the
    // server's conditions and recall read: the page reads it too, unless the respondent has
    // changed the answer since.
    if (state.answers[key] === value && value !== null && answer.value !== undefined && answer.value !== null) {
      state.answers[key] = answer.value;
      persist();
      refresh();
    }
  } catch (error) {
    showSaved(key, "");
    showError(key, error.details?.[key] ? `This answer ${error.details[key]}.` : error.message);
    if (state.fromAddress.has(key) && error.code === "INVALID_ANSWER" && state.answers[key] === value) {
      forgetPrefilled(key);
    }
  }
}

// A value from the page's address the server refused: the question is left unanswered, its
// control cleared.
function forgetPrefilled(key) {
  state.fromAddress.delete(key);
  delete state.answers[key];
  persist();
  for (const input of state.sections.get(key)?.querySelectorAll("input, select, textarea") ?? []) {
    if (input.type === "radio" || input.type === "checkbox") input.checked = false;
    else input.value = "";
  }
  refresh();
}

export async function flushSaves() {
  for (const [key, timer] of [...state.timers]) {
    clearTimeout(timer);
    save(key);
  }
  while (state.pending.size) await Promise.allSettled([...state.pending]);
}

export function showFollowUp(key, prompt) {
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

// An answer taken from the page's address: kept now, saved once the response starts (the
// first answer the respondent gives, or the submit), so that a visit alone starts nothing.
export function setPrefilled(key, value) {
  state.answers[key] = value;
  state.prefilled.add(key);
  state.fromAddress.add(key);
}

export function config(q) {
  return q.configuration || {};
}

// The page's refresh (intake.js): shows and hides questions as answers change.
let refreshPage = () => {};
export function onRefresh(fn) {
  refreshPage = fn;
}
export function refresh() {
  refreshPage();
}

// Uploads `body` as the answer to `key` through the files route; the stored answer.
export function uploadFile(key, body, contentType, fileName) {
  return onResponse((s) =>
    call("POST", `${base}/responses/${s.uuid}/files/${key}/`, body, {
      "Content-Type": contentType,
      "X-File-Name": encodeURIComponent(fileName),
    }),
  );
}
