// A signature: drawn with a pointer (mouse, pen or finger) on a canvas, or typed as a name
// for those who cannot draw (keyboard users), and uploaded as a PNG through the files route.
import { config, el, refresh, showError, showSaved, state, track, uploadFile } from "./page.js";

export function signatureControl(q) {
  const key = q.field_key;
  const limit = Number(config(q).max_size_kb || 256) * 1024;
  const canvas = el("canvas", { class: "signature-pad", width: 600, height: 180, role: "img", "aria-label": "Signature area: draw your signature here" });
  const pen = canvas.getContext("2d");
  let drawing = false;
  let drawn = false;
  const point = (e) => {
    const box = canvas.getBoundingClientRect();
    return [((e.clientX - box.left) * canvas.width) / box.width, ((e.clientY - box.top) * canvas.height) / box.height];
  };
  const clear = () => {
    pen.fillStyle = "#fff";
    pen.fillRect(0, 0, canvas.width, canvas.height);
    drawn = false;
  };
  clear();
  canvas.addEventListener("pointerdown", (e) => {
    drawing = true;
    canvas.setPointerCapture(e.pointerId);
    pen.beginPath();
    pen.moveTo(...point(e));
  });
  canvas.addEventListener("pointermove", (e) => {
    if (!drawing) return;
    pen.lineWidth = 2.5;
    pen.lineCap = "round";
    pen.strokeStyle = "#111";
    pen.lineTo(...point(e));
    pen.stroke();
    drawn = true;
  });
  const end = () => {
    if (!drawing) return;
    drawing = false;
    if (drawn) track(save());
  };
  canvas.addEventListener("pointerup", end);
  canvas.addEventListener("pointercancel", end);

  const typedId = `input-${key}`;
  const typed = el("input", { id: typedId, type: "text", autocomplete: "name", "aria-describedby": `error-${key}` });
  typed.addEventListener("change", () => {
    clear();
    if (!typed.value.trim()) return;
    pen.fillStyle = "#111";
    pen.font = "italic 48px Georgia, serif";
    pen.textBaseline = "middle";
    pen.fillText(typed.value.trim(), 24, canvas.height / 2, canvas.width - 48);
    drawn = true;
    track(save());
  });
  const clearButton = el("button", { type: "button", class: "secondary", text: "Clear", onclick: () => {
    clear();
    typed.value = "";
    showSaved(key, "");
  } });

  async function save() {
    const png = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
    if (!png) return;
    if (png.size > limit) return showError(key, `This signature is larger than ${limit / 1024} KB.`);
    showSaved(key, "Saving your signature…");
    try {
      state.media[key] = await uploadFile(key, png, "image/png", "signature.png");
      showError(key, "");
      showSaved(key, "Signature saved");
      refresh();
    } catch (error) {
      showSaved(key, "");
      showError(key, error.details?.[key] ? `This signature ${error.details[key]}.` : error.message);
    }
  }

  return el(
    "div",
    { class: "signature" },
    canvas,
    el("div", { class: "signature-tools" }, clearButton),
    el("label", { for: typedId, class: "type-label", text: "Or type your name to sign" }),
    typed,
  );
}
