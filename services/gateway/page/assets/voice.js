// Voice answers: recorded in the browser as Opus (MediaRecorder, in WebM or Ogg) where it can,
// so that an hour's answer fits the API's limit, else as 16 kHz WAV (an AudioWorklet), which
// live transcription also streams over a WebSocket when the link asks for it; uploaded through
// the audio route, played back from where it is stored, and typed instead where the question
// allows it.
import { textInput } from "./controls.js";
import { app, base, call, config, el, onResponse, refresh, settings, showError, showFollowUp, showSaved, started, state, track } from "./page.js";

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

// What MediaRecorder can make that the API takes, best first.
const OPUS_TYPES = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus"];
// Speech needs no more (the API allows up to 64 kbit/s of max_duration).
const OPUS_BITS_PER_SECOND = 32000;
// 10 MiB of 16 kHz 16-bit WAV (the API's limit for a WAV and for a live stream).
const WAV_SECONDS = 320;

function opusType() {
  if (typeof MediaRecorder === "undefined") return null;
  return OPUS_TYPES.find((type) => MediaRecorder.isTypeSupported(type)) || null;
}

// A stored recording's address on this page's own origin (the API gives it absolute).
function sameOrigin(url) {
  const u = new URL(url, location.href);
  return u.pathname + u.search;
}

function clock(seconds) {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function voiceControl(q) {
  const c = config(q);
  const key = q.field_key;
  // Live transcription streams PCM, stored as WAV; otherwise Opus where the browser makes it.
  const compressed = settings.live_transcription ? null : opusType();
  const maxSeconds = Math.min(Number(c.max_duration || 120), compressed ? 3600 : WAV_SECONDS);
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
    if (compressed) return startCompressed(stream);
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
    showRecording();
  }

  function startCompressed(stream) {
    const recorder = new MediaRecorder(stream, { mimeType: compressed, audioBitsPerSecond: OPUS_BITS_PER_SECOND });
    const parts = [];
    recorder.addEventListener("dataavailable", (event) => event.data.size && parts.push(event.data));
    const began = performance.now();
    const tick = setInterval(() => {
      const seconds = (performance.now() - began) / 1000;
      timer.textContent = `${clock(seconds)} / ${clock(maxSeconds)}`;
      if (seconds >= maxSeconds) stop();
    }, 250);
    recorder.start(1000);
    recording = { stream, recorder, parts, tick };
    showRecording();
  }

  function showRecording() {
    record.textContent = "Stop recording";
    record.setAttribute("aria-pressed", "true");
    live.textContent = settings.live_transcription ? "Listening…" : "Recording…";
  }

  // The recording as it is uploaded: Opus from MediaRecorder, or a WAV of the worklet's PCM.
  async function ended(taken) {
    const { stream, context, node, chunks, recorder, parts, tick } = taken;
    if (recorder) {
      clearInterval(tick);
      // A recorder whose microphone went away has stopped already.
      if (recorder.state !== "inactive") {
        await new Promise((resolve) => {
          recorder.addEventListener("stop", resolve, { once: true });
          recorder.addEventListener("error", resolve, { once: true });
          recorder.stop();
        });
      }
      stream.getTracks().forEach((t) => t.stop());
      const type = compressed.split(";")[0];
      return { body: new Blob(parts, { type }), type };
    }
    node.port.onmessage = null;
    stream.getTracks().forEach((t) => t.stop());
    await context.close();
    return { body: wavOf(chunks), type: "audio/wav" };
  }

  function stop() {
    if (!recording) return;
    return track(finish());
  }

  async function finish() {
    const taken = recording;
    recording = null;
    const { socket } = taken;
    const made = await ended(taken);
    record.textContent = "Record again";
    record.setAttribute("aria-pressed", "false");
    const local = URL.createObjectURL(made.body);
    const player = el("audio", { controls: true, preload: "metadata", src: local, "aria-label": "Your recording" });
    playback.replaceChildren(player);
    showSaved(key, "Saving your recording…");
    try {
      let answer = null;
      if (socket?.readyState === WebSocket.OPEN) answer = await finishLive(socket);
      if (!answer) {
        answer = await onResponse((s) => call("POST", `${base}/responses/${s.uuid}/audio/${key}/`, made.body, { "Content-Type": made.type }));
      }
      // Played back from where it is stored (read in parts as the player seeks).
      if (answer.audio_url) {
        player.src = sameOrigin(answer.audio_url);
        URL.revokeObjectURL(local);
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
