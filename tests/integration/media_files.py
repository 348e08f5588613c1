"""Bodies the media tests upload: documents made here, speech made by flite and encoded by
ffmpeg (both installed by scripts/setup), and a minimal WebSocket client for live
transcription."""
import base64
import os
import socket
import struct
import subprocess
import tempfile
import zlib


def pdf(size=None):
    """A small well-formed PDF, padded with comment lines to about `size` bytes."""
    out = b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"
    if size:
        line = b"%" + b"x" * 78 + b"\n"
        out += line * max(0, (size - len(out) - 64) // len(line))
    return out + b"trailer\n<< /Root 1 0 R >>\n%%EOF\n"


def png():
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b""))


def wav(seconds=1.0, rate=16000):
    data = b"\x00\x00" * int(seconds * rate)
    fmt = struct.pack("<HHIIHH", 1, 1, rate, rate * 2, 2, 16)
    return (b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " + struct.pack("<I", 16) + fmt
            + b"data" + struct.pack("<I", len(data)) + data)


_spoken = {}


def spoken(text, fmt="wav"):
    """`text` read by flite's slt voice, as WAV (16 kHz mono) or Opus in WebM or Ogg."""
    key = (text, fmt)
    if key in _spoken:
        return _spoken[key]
    with tempfile.TemporaryDirectory() as d:
        raw = os.path.join(d, "speech.wav")
        subprocess.run(["flite", "-voice", "slt", "-t", text, "-o", raw], check=True)
        out = raw
        if fmt != "wav":
            out = os.path.join(d, f"speech.{fmt}")
            subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", raw, "-c:a", "libopus",
                            "-b:a", "32k", out], check=True)
        with open(out, "rb") as f:
            _spoken[key] = f.read()
    return _spoken[key]


def long_recording(text, seconds, fmt="webm", bitrate="32k"):
    """`text` read by flite, then silence, then `text` again, `seconds` long in all: Opus in WebM
    or Ogg at `bitrate`, or a 16 kHz WAV (fmt "wav"). Silence costs the recogniser little, so
    a long recording is transcribed in seconds."""
    with tempfile.TemporaryDirectory() as d:
        speech = os.path.join(d, "speech.wav")
        subprocess.run(["flite", "-voice", "slt", "-t", text, "-o", speech], check=True)
        out = os.path.join(d, f"long.{fmt}")
        codec = ["-c:a", "pcm_s16le"] if fmt == "wav" else ["-c:a", "libopus", "-b:a", bitrate]
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", speech, "-f", "lavfi", "-i",
                        "anullsrc=r=16000:cl=mono", "-i", speech, "-filter_complex",
                        "[0:a]aresample=16000[a];[1:a]atrim=0:1[gap];[2:a]aresample=16000[b];"
                        "[a][gap]concat=n=2:v=0:a=1,apad[padded];[padded]atrim=0:"
                        f"{seconds - 4}[body];[body][b]concat=n=2:v=0:a=1",
                        "-ar", "16000", "-ac", "1", *codec, out], check=True)
        with open(out, "rb") as f:
            return f.read()


def quiet_opus(seconds, bitrate="256k"):
    """`seconds` of faint noise as Opus in WebM at a constant `bitrate`: a large recording
    (about bitrate / 8 bytes a second) that holds no words."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "quiet.webm")
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                        "anoisesrc=r=48000:a=0.0005:c=white", "-t", str(seconds), "-ac", "1",
                        "-c:a", "libopus", "-b:a", bitrate, "-vbr", "off", out], check=True)
        with open(out, "rb") as f:
            return f.read()


def pcm_of(wav_bytes):
    """The samples of a 16 kHz mono 16-bit WAV made by flite (its data chunk)."""
    at = wav_bytes.index(b"data") + 8
    return wav_bytes[at:]


class WebSocket:
    """Just enough of RFC 6455 for a test client: handshake, masked frames, text and binary."""

    def __init__(self, address, path, host, timeout=15):
        hostname, port = address.rsplit(":", 1)
        self.sock = socket.create_connection((hostname, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            head += chunk
        self.status = int(head.split(b" ", 2)[1]) if head else 0
        self.head, _, self.pending = head.partition(b"\r\n\r\n")

    def send(self, payload, binary=False):
        opcode = 0x2 if binary else 0x1
        if isinstance(payload, str):
            payload = payload.encode()
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _read(self, n):
        while len(self.pending) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.pending += chunk
        out, self.pending = self.pending[:n], self.pending[n:]
        return out

    def receive(self):
        """(opcode, payload) of the next frame; opcode 8 is a close."""
        b0, b1 = self._read(2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack(">H", self._read(2))[0]
        elif n == 127:
            n = struct.unpack(">Q", self._read(8))[0]
        return b0 & 0x0F, self._read(n)

    def close(self):
        self.sock.close()
