// Turns the microphone's audio into 16 kHz mono 16-bit PCM, posted in pieces of about 100 ms
// to the page, which uploads it as a WAV or streams it for live transcription.
class Recorder16k extends AudioWorkletProcessor {
  constructor() {
    super();
    this.ratio = sampleRate / 16000;
    this.position = 0;
    this.pending = [];
  }

  process(inputs) {
    const input = inputs[0];
    if (!input || input.length === 0) return true;
    const channels = input.length;
    const frames = input[0].length;
    // Mono: the channels' mean. Downsampled by averaging each output sample's span, which
    // filters what 16 kHz cannot carry well enough for speech.
    while (this.position < frames) {
      const start = Math.floor(this.position);
      const end = Math.min(frames, Math.floor(this.position + this.ratio) || start + 1);
      let sum = 0;
      let count = 0;
      for (let i = start; i < end; i++) {
        for (let c = 0; c < channels; c++) sum += input[c][i];
        count += channels;
      }
      const value = count ? sum / count : 0;
      this.pending.push(Math.max(-32768, Math.min(32767, Math.round(value * 32767))));
      this.position += this.ratio;
    }
    this.position -= frames;
    if (this.pending.length >= 1600) {
      this.port.postMessage(Int16Array.from(this.pending).buffer);
      this.pending = [];
    }
    return true;
  }
}

registerProcessor("recorder-16k", Recorder16k);
