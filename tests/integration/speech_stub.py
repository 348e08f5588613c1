"""An OpenAI-compatible speech-to-text server for the speech-server transcriber's tests
(API-CONTRACT section 14): POST /v1/audio/transcriptions takes multipart form data, parsed
here with the standard library's MIME parser, and how it answers depends on a word in the
form's prompt (see SpeechStub.answer). Every request is recorded with its headers and parts."""
import email.parser
import email.policy
import json
import struct
import time

from stub_server import StubServer


def parse_form(content_type, body):
    """{name: (filename, content type, bytes)} of a multipart/form-data body; raises on a body
    that is not one."""
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body)
    if not message.is_multipart():
        raise ValueError("not multipart")
    parts = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        parts[name] = (part.get_filename(), part.get_content_type(), part.get_payload(decode=True))
    return parts


def wav_format(data):
    """(channels, sample rate, bits) of a PCM WAV."""
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise ValueError("not a WAV")
    _, channels, rate, _, _, bits = struct.unpack("<HHIIHH", data[20:36])
    return channels, rate, bits


class SpeechStub(StubServer):
    """Words in the prompt: good (answers "Server heard <seconds> seconds."), malformed
    (prose, not JSON), timeout (answers after `hang_seconds`), broken (500), refused (413),
    slow (answers after `slow_seconds`), flaky (500 the first time, then good)."""

    def __init__(self, slow_seconds=2.0, hang_seconds=6.0):
        self.slow_seconds = slow_seconds
        self.hang_seconds = hang_seconds
        super().__init__()

    def answer_post(self, path, headers, body):
        try:
            parts = parse_form(headers.get("Content-Type", ""), body)
            fields = {k: v[2].decode() for k, v in parts.items() if v[0] is None}
            recording = parts["file"]
        except (ValueError, KeyError, UnicodeDecodeError) as e:
            return 400, json.dumps({"error": f"bad form: {e}"})
        record = {"path": path, "headers": dict(headers), "fields": fields, "file": recording}
        self.record(record)
        return self.answer(record)

    def calls(self, word):
        with self.lock:
            return [r for r in self.requests if word in r["fields"].get("prompt", "")]

    def answer(self, record):
        prompt = record["fields"].get("prompt", "")
        data = record["file"][2]
        channels, rate, bits = wav_format(data)
        seconds = (len(data) - 44) / (rate * channels * bits // 8)
        heard = json.dumps({"text": f" Server heard {seconds:.1f} seconds."})
        if "timeout" in prompt:
            time.sleep(self.hang_seconds)
            return 200, heard
        if "slow" in prompt:
            time.sleep(self.slow_seconds)
            return 200, heard
        if "broken" in prompt:
            return 500, json.dumps({"error": "model crashed"})
        if "refused" in prompt:
            return 413, json.dumps({"error": "file too large"})
        if "flaky" in prompt and len(self.calls("flaky")) == 1:
            return 500, json.dumps({"error": "busy"})
        if "malformed" in prompt:
            return 200, "Server heard something, not JSON."
        return 200, heard
