"""Reads of stored files and recordings (docs/api.md "Media"): Range requests (206, 416,
If-Range), signed addresses past their expiry, and memory that stays flat while 50 clients
read a 30 MiB recording at once."""
import base64
import concurrent.futures
import hashlib
import hmac
import os
import socket
import threading
import time
import urllib.parse
import uuid

import media_files
from harness import STACK_DIR, ExtraProcess, Workspace, expect, intake, rss, sql, test

MIB = 1024 * 1024


def _secrets_key():
    with open(os.path.join(STACK_DIR, "services.env")) as f:
        return next(line.split("=", 1)[1].strip() for line in f if line.startswith("SECRETS_KEY="))


def _signed_path(ws, blob, expires):
    """The address the service would sign (common/api/media_urls.cc), made here to set its expiry."""
    key = hmac.new(_secrets_key().encode(), b"feedback media urls v1", hashlib.sha256).digest()
    mac = hmac.new(key, f"{ws.uuid}/{blob}/{expires}".encode(), hashlib.sha256).digest()
    signature = base64.urlsafe_b64encode(mac).rstrip(b"=").decode()
    return f"/media/{blob}?expires={expires}&signature={signature}"


def _read(ws, path, headers=None, gateway=None):
    return intake(ws.info["host"], "GET", path, headers=headers, gateway=gateway)


def _uploaded_pdf(ws, size):
    ws.link(slug="ranged", questions=[
        {"prompt": "Attach it", "type": "file_upload", "field_key": "doc",
         "configuration": {"allowed_types": ["application/pdf"], "max_size_mb": 5}}])
    st = ws.start("ranged")
    body = media_files.pdf(size)
    r = ws.intake("POST", f"/i/ranged/responses/{st['uuid']}/files/doc/", token=st["token"],
                  headers={"Content-Type": "application/pdf", "X-File-Name": "big.pdf"}, body=body,
                  timeout=60)
    url = urllib.parse.urlsplit(expect(r, 200)["value"]["url"])
    return body, f"{url.path}?{url.query}"


@test
def range_requests_read_parts_of_a_file():
    ws = Workspace()
    body, path = _uploaded_pdf(ws, 3 * MIB)  # stored in chunks of 256 KiB
    size = len(body)
    whole = _read(ws, path)
    assert whole.status == 200 and whole.body == body, whole
    assert whole.header("Accept-Ranges") == "bytes" and whole.header("Content-Length") == str(size)
    etag = whole.header("ETag")
    cases = {"bytes=0-99": (0, 100),                        # the first bytes
             "bytes=262000-263999": (262000, 2000),         # a middle, across a chunk's end
             "bytes=1000000-": (1000000, size - 1000000),   # to the end
             "bytes=-500": (size - 500, 500),               # a suffix
             f"bytes={size - 10}-{size + 1000}": (size - 10, 10)}  # clipped to the file
    for header, (first, length) in cases.items():
        r = _read(ws, path, {"Range": header})
        assert r.status == 206, (header, r)
        assert r.body == body[first:first + length], header
        assert r.header("Content-Range") == f"bytes {first}-{first + length - 1}/{size}", (header, r.headers)
        assert r.header("Content-Length") == str(length) and r.header("ETag") == etag, r.headers
        assert r.header("Content-Type") == "application/pdf" and r.header("X-Content-Type-Options") == "nosniff"
    # Past the end: 416 with the size; malformed or several ranges: the whole file.
    for header in (f"bytes={size}-", f"bytes={size + 5}-{size + 9}", "bytes=-0"):
        r = _read(ws, path, {"Range": header})
        expect(r, 416, "RANGE_NOT_SATISFIABLE")
        assert r.header("Content-Range") == f"bytes */{size}", (header, r.headers)
    for header in ("bytes=9-2", "bytes=0-1,5-6", "items=0-9", "bytes=abc"):
        r = _read(ws, path, {"Range": header})
        assert r.status == 200 and r.body == body, (header, r.status)
    # If-Range: the part while the tag matches, else the whole.
    assert _read(ws, path, {"Range": "bytes=0-9", "If-Range": etag}).status == 206
    stale = _read(ws, path, {"Range": "bytes=0-9", "If-Range": '"0123"'})
    assert stale.status == 200 and stale.body == body


@test
def a_signed_address_past_its_expiry_is_404_with_or_without_a_range():
    ws = Workspace()
    body, path = _uploaded_pdf(ws, 4096)
    blob = path.split("/media/")[1].split("?")[0]
    now = int(time.time())
    # Made as the service makes them: a good one works, so the expired one fails for its expiry.
    assert _read(ws, _signed_path(ws, blob, now + 600)).body == body
    for headers in (None, {"Range": "bytes=0-9"}):
        expect(_read(ws, _signed_path(ws, blob, now - 5), headers), 404)


def _stored_recording(ws, chunks):
    """A recording of `chunks` chunks of 256 KiB written straight into the store (larger than an
    upload may be, the read is what is measured); its bytes."""
    blob = str(uuid.uuid4())
    content = b"".join((hashlib.md5(str(g).encode()).hexdigest() * 8192).encode() for g in range(chunks))
    sql(f"INSERT INTO responses.blobs (uuid, workspace_uuid, content_type, file_name, size_bytes, sha256)"
        f" VALUES ('{blob}', '{ws.uuid}', 'audio/webm', 'recording', {len(content)},"
        f" '{hashlib.sha256(content).hexdigest()}')")
    sql(f"INSERT INTO responses.blob_chunks (blob_uuid, seq, data) SELECT '{blob}', g,"
        f" convert_to(repeat(md5(g::text), 8192), 'UTF8') FROM generate_series(0, {chunks - 1}) g")
    return blob, content


def _slow_read(address, host, path, wait):
    """A whole GET on a connection of its own that reads nothing for `wait` seconds first: the
    body's sha256 and length."""
    hostname, port = address.rsplit(":", 1)
    with socket.create_connection((hostname, int(port)), timeout=60) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        time.sleep(wait)
        data = bytearray()
        while True:
            chunk = s.recv(1 << 20)
            if not chunk:
                break
            data += chunk
    head, _, body = bytes(data).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head[:200]
    return hashlib.sha256(body).hexdigest(), len(body)


@test
def fifty_clients_read_a_30_mib_recording_at_once_in_flat_memory():
    ws = Workspace()
    blob, content = _stored_recording(ws, 120)
    assert len(content) == 30 * MIB
    path = _signed_path(ws, blob, int(time.time()) + 600)
    with ExtraProcess("responses", log_name="responses-reads") as responses, \
            ExtraProcess("gateway", log_name="gateway-reads", RESPONSES_ADDR=responses.address) as gw:
        # Warm: one read, so that both processes' pools and buffers exist before the baseline.
        assert _slow_read(gw.address, ws.info["host"], path, 0) == (hashlib.sha256(content).hexdigest(), len(content))
        baseline = {"gateway": rss(gw.proc), "responses": rss(responses.proc)}
        peak = dict(baseline)
        stop = threading.Event()

        def sample():
            while not stop.is_set():
                peak["gateway"] = max(peak["gateway"], rss(gw.proc))
                peak["responses"] = max(peak["responses"], rss(responses.proc))
                time.sleep(0.02)
        sampler = threading.Thread(target=sample)
        sampler.start()
        started = time.monotonic()
        try:
            with concurrent.futures.ThreadPoolExecutor(50) as pool:
                reads = list(pool.map(lambda _: _slow_read(gw.address, ws.info["host"], path, 1.0), range(50)))
        finally:
            stop.set()
            sampler.join()
        took = time.monotonic() - started
    assert all(r == (hashlib.sha256(content).hexdigest(), len(content)) for r in reads), \
        sorted(r[1] for r in reads)
    grown = {name: (peak[name] - baseline[name]) / MIB for name in peak}
    print(f"    50 reads of 30 MiB in {took:.1f} s; RSS growth: gateway {grown['gateway']:.0f} MiB, "
          f"responses {grown['responses']:.0f} MiB (whole bodies held would be 1,500 MiB)")
    # A few chunks per reader at most: 2 of 256 KiB at a time in the service, sent in 64 KiB
    # messages, a 64 KiB window of the stream in the gateway (measured: 16-17 and 51-53 MiB
    # over 50 readers; 256 KiB messages cost the gateway 58-100 MiB).
    assert grown["gateway"] < 48 and grown["responses"] < 128, grown
