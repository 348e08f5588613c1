"""Slow and abusive clients cannot take the gateway from others: slowloris headers, 10,000
idle connections, oversized headers, bodies and uploads trickled a byte at a time, WebSockets
that never read. Each runs against a gateway of its own (the stack's services behind it, a
2 s read deadline), while a well-behaved client keeps calling; every one of its calls must be
answered, and the gateway's resident memory must stay within its target.

Memory target: 64 MiB with 1,000 idle connections (the bench's figure) and 96 MiB with
10,000; every abuse ends with the gateway back under 64 MiB plus what its caches may hold."""
import os
import resource
import socket
import threading
import time

import media_files
from harness import ExtraProcess, Workspace, expect, metrics, request, rss, test, wait_until

READ_TIMEOUT_S = 2
MIB = 1024 * 1024
IDLE_TARGET = {1000: 64 * MIB, 10000: 96 * MIB}


class WellBehaved:
    """A client calling GET /v1/links/ in a loop on `gateway`; every call must be answered."""

    def __init__(self, ws, gateway):
        self.ws, self.gateway = ws, gateway
        self.answers, self.failures = 0, []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self.stop.is_set():
            try:
                r = self.ws.call("GET", "links/", gateway=self.gateway, timeout=5)
                if r.status == 200:
                    self.answers += 1
                else:
                    self.failures.append(repr(r))
            except OSError as e:
                self.failures.append(f"{type(e).__name__}: {e}")
            time.sleep(0.02)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(10)

    def check(self, what):
        """No call failed, and calls are still being answered now."""
        assert not self.failures, f"{what}: a well-behaved client was failed: {self.failures[:3]}"
        now = self.answers
        wait_until(lambda: self.answers >= now + 3, 10, f"{what}: answers to a well-behaved client")
        assert not self.failures, f"{what}: a well-behaved client was failed: {self.failures[:3]}"


def gateway_of_its_own(**settings):
    settings.setdefault("GATEWAY_READ_TIMEOUT_MS", str(READ_TIMEOUT_S * 1000))
    return ExtraProcess("gateway", log_name="gateway-abuse", **settings)


def connect(gw, timeout=10):
    host, port = gw.address.rsplit(":", 1)
    return socket.create_connection((host, int(port)), timeout=timeout)


def closed_by_server(sock, within):
    """True once the server has closed `sock` (EOF or reset), waiting at most `within` seconds."""
    sock.settimeout(max(within, 0.1))
    try:
        while sock.recv(65536):
            pass
        return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def raise_fd_limit(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert hard >= needed, f"this machine allows {hard} open files per process; the test needs {needed}"
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


@test
def ten_thousand_idle_connections_stay_within_the_memory_target():
    raise_fd_limit(10500)
    ws = Workspace()
    with gateway_of_its_own(GATEWAY_READ_TIMEOUT_MS="60000") as gw, WellBehaved(ws, gw.address) as client:
        expect(ws.call("GET", "links/", gateway=gw.address), 200)
        baseline = rss(gw.proc)
        socks = []
        try:
            for count in (1000, 10000):
                while len(socks) < count:
                    socks.append(connect(gw))
                # Every connection accepted and held (besides the well-behaved client's).
                wait_until(lambda: metrics(gw.admin_url)["gateway_open_connections"] >= count, 20,
                           f"{count} connections open")
                used = rss(gw.proc)
                print(f"  {count} idle connections: RSS {used / MIB:.1f} MiB (baseline {baseline / MIB:.1f})")
                assert used < IDLE_TARGET[count], f"{count} idle connections: RSS {used / MIB:.1f} MiB"
                expect(ws.call("GET", "links/", gateway=gw.address, timeout=5), 200)
        finally:
            for s in socks:
                s.close()
        client.check("10,000 idle connections")


@test
def slowloris_headers_are_cut_off_at_the_read_deadline():
    ws = Workspace()
    with gateway_of_its_own() as gw, WellBehaved(ws, gw.address) as client:
        socks = [connect(gw) for _ in range(500)]
        for s in socks:
            s.sendall(b"GET /v1/links/ HTTP/1.1\r\nHost: a\r\n")
        started = time.monotonic()
        # A header line now and then, never the end of the header section.
        while time.monotonic() - started < READ_TIMEOUT_S - 1:
            for i, s in enumerate(socks):
                try:
                    s.sendall(f"X-Slow-{i}: {time.monotonic()}\r\n".encode())
                except OSError:
                    pass
            time.sleep(1)
        still_open = [s for s in socks if not closed_by_server(s, READ_TIMEOUT_S + 3 - (time.monotonic() - started))]
        for s in socks:
            s.close()
        assert not still_open, f"{len(still_open)} slowloris connections outlived the read deadline"
        client.check("slowloris")


@test
def oversized_headers_answer_431_and_close():
    ws = Workspace()
    with gateway_of_its_own() as gw, WellBehaved(ws, gw.address) as client:
        before = rss(gw.proc)
        for size in (20 * 1024, 1024 * 1024, 8 * 1024 * 1024):
            with connect(gw) as s:
                s.sendall(b"GET /v1/links/ HTTP/1.1\r\nHost: a\r\n")
                answer = b""
                try:
                    # The server answers once the limit is passed and stops reading: what it does
                    # not read is refused by the socket, which is the point.
                    chunk = b"X-Big: " + b"a" * 8192 + b"\r\n"
                    for _ in range(size // len(chunk) + 1):
                        s.sendall(chunk)
                except OSError:
                    pass
                try:
                    while True:
                        data = s.recv(65536)
                        if not data:
                            break
                        answer += data
                except OSError:
                    pass
                assert answer.startswith(b"HTTP/1.1 431"), f"{size} bytes of headers: {answer[:200]!r}"
        # One header line of a million bytes, in one piece.
        with connect(gw) as s:
            try:
                s.sendall(b"GET /v1/links/ HTTP/1.1\r\nX-Long: " + b"b" * MIB + b"\r\n\r\n")
            except OSError:
                pass
            assert closed_by_server(s, 10)
        assert rss(gw.proc) < before + 16 * MIB, "headers that were refused were kept"
        client.check("oversized headers")


@test
def bodies_trickled_a_byte_at_a_time_are_cut_off_and_free_the_upload_budget():
    """JSON bodies and uploads sent a byte per second: the connection is closed once it cannot
    meet the read deadline and the slowest rate an upload may keep (8 KiB/s after the first
    read deadline), and the uploads' budget it held goes to others."""
    ws = Workspace()
    ws.link(slug="trickle", settings={}, questions=[
        {"prompt": "Say it", "type": "voice", "field_key": "said", "configuration": {"max_duration": 60}}])
    host = ws.info["host"]
    # The budget of two uploads at their 10 MiB limit: two tricklers would take all of it.
    with gateway_of_its_own(UPLOAD_BUDGET_MIB="20") as gw, WellBehaved(ws, gw.address) as client:
        tricklers = []
        for _ in range(2):
            st = ws.start("trickle")
            s = connect(gw)
            s.sendall((f"POST /i/trickle/responses/{st['uuid']}/audio/said/ HTTP/1.1\r\nHost: {host}\r\n"
                       f"X-Response-Token: {st['token']}\r\nContent-Type: audio/wav\r\n"
                       f"Content-Length: {10 * MIB}\r\n\r\n").encode())
            tricklers.append(s)
        for _ in range(50):
            s = connect(gw)
            s.sendall(b"POST /v1/links/ HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100000\r\n\r\n")
            tricklers.append(s)
        started = time.monotonic()
        while time.monotonic() - started < READ_TIMEOUT_S + 2:
            for s in tricklers:
                try:
                    s.sendall(b"{")
                except OSError:
                    pass
            time.sleep(1)
        still_open = [s for s in tricklers if not closed_by_server(s, 3)]
        for s in tricklers:
            s.close()
        assert not still_open, f"{len(still_open)} trickled bodies outlived their deadline"
        # The budget is free again: a real recording goes through.
        st = ws.start("trickle")
        r = request("POST", f"/i/trickle/responses/{st['uuid']}/audio/said/", gateway=gw.address,
                    headers={"Host": host, "X-Response-Token": st["token"], "Content-Type": "audio/wav"},
                    body=media_files.wav(1.0), timeout=30)
        expect(r, 200)
        client.check("trickled bodies")


def _upload_slowly(gw, ws, slug, body, chunks):
    """Sends a recording as `chunks` (seconds to wait before each, bytes); returns the answer."""
    st = ws.start(slug)
    s = connect(gw, timeout=30)
    try:
        s.sendall((f"POST /i/{slug}/responses/{st['uuid']}/audio/said/ HTTP/1.1\r\nHost: {ws.info['host']}\r\n"
                   f"X-Response-Token: {st['token']}\r\nContent-Type: audio/wav\r\n"
                   f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode())
        at = 0
        for pause, size in chunks:
            time.sleep(pause)
            try:
                s.sendall(body[at:at + size])
            except OSError:
                break
            at += size
        answer = b""
        try:
            while chunk := s.recv(65536):
                answer += chunk
        except OSError:
            pass
        return answer
    finally:
        s.close()


@test
def a_slow_upload_goes_through_and_a_stalled_one_is_cut_off():
    """Slow mobile data (12 KiB/s, for twice the read deadline) keeps its upload going; a
    burst followed by silence is cut a read deadline after its last bytes."""
    ws = Workspace()
    ws.link(slug="slow", settings={}, questions=[
        {"prompt": "Say it", "type": "voice", "field_key": "said", "configuration": {"max_duration": 60}}])
    with gateway_of_its_own() as gw:
        body = media_files.wav(1.5)  # 48 KB: about 4 s at 12 KiB/s, twice the read deadline
        step = 12 * 1024
        slow = _upload_slowly(gw, ws, "slow", body, [(1.0, step)] * (len(body) // step + 1))
        assert slow.startswith(b"HTTP/1.1 200"), slow[:300]
        # Most of it at once, then nothing: the deadline is never more than a read deadline
        # past the last bytes, whatever was sent before.
        st = ws.start("slow")
        with connect(gw) as s:
            s.sendall((f"POST /i/slow/responses/{st['uuid']}/audio/said/ HTTP/1.1\r\n"
                       f"Host: {ws.info['host']}\r\nX-Response-Token: {st['token']}\r\n"
                       f"Content-Type: audio/wav\r\nContent-Length: {len(body)}\r\n\r\n").encode()
                      + body[:-1000])
            assert closed_by_server(s, READ_TIMEOUT_S + 3), "a stalled upload outlived its read deadline"


@test
def websockets_that_never_read_do_not_hold_the_gateway():
    ws = Workspace()
    ws.link(slug="deaf", settings={"live_transcription": True}, questions=[
        {"prompt": "Say it", "type": "voice", "field_key": "said", "configuration": {"max_duration": 5}}])
    with gateway_of_its_own() as gw, WellBehaved(ws, gw.address) as client:
        before = rss(gw.proc)
        socks = []
        pcm = media_files.pcm_of(media_files.wav(1.0))
        for _ in range(6):
            st = ws.start("deaf")
            sock = media_files.WebSocket(gw.address, f"/i/deaf/responses/{st['uuid']}/live/said/?token={st['token']}",
                                         ws.info["host"])
            assert sock.status == 101, sock.head
            socks.append(sock)
        # Audio goes in; nothing the server sends is ever read.
        deadline = time.monotonic() + 4
        while time.monotonic() < deadline:
            for sock in socks:
                try:
                    sock.send(pcm, binary=True)
                except OSError:
                    pass
            time.sleep(0.5)
        during = rss(gw.proc)
        print(f"  6 WebSockets that never read: RSS {during / MIB:.1f} MiB (before {before / MIB:.1f})")
        assert during < before + 16 * MIB, f"WebSockets that never read hold {(during - before) / MIB:.1f} MiB"
        for sock in socks:
            sock.close()
        # Everything they held is let go once they are gone.
        wait_until(lambda: metrics(gw.admin_url)["gateway_open_connections"] <= 1, 10,
                   "the deaf WebSockets' connections closed")
        client.check("WebSockets that never read")
