"""The mixed load of scripts/chaos: link reads, link creates, one-call intake submissions and
response lists, each kind on threads of its own, spread over every gateway the way a load
balancer would (a refused connection is tried on the next gateway; a request cut while under
way is not sent again). Every request is recorded with what it was answered and when; every
acknowledged write is remembered for the checker."""
import http.client
import itertools
import json
import socket
import threading
import time
import uuid

# Longer than any answer may take: the gateway's backend deadline (5 s) and a margin. A request
# still unanswered then has hung.
DEADLINE_S = 7.0
CLIENT_TIMEOUT_S = 20.0


class Record:
    __slots__ = ("kind", "started", "ended", "gateway", "status", "retry_after", "error", "body")

    def __init__(self, kind, started):
        self.kind, self.started = kind, started
        self.ended = self.gateway = self.status = self.retry_after = self.error = self.body = None

    @property
    def ok(self):
        return self.status in (200, 201)


class Target:
    """What the load works on: one workspace, its key and host, a link with a webhook."""

    def __init__(self, key, host, link_uuid, slug, gateways):
        self.key, self.host, self.link_uuid, self.slug = key, host, link_uuid, slug
        self.gateways = gateways


class Load:
    KINDS = ("read", "create", "submit", "list")

    def __init__(self, target, threads):
        self.target = target
        self.threads = threads  # {kind: number of threads}
        self.records = []
        self.acked_links = {}      # uuid -> name
        self.acked_responses = {}  # uuid -> the text answered
        self.stop_event = threading.Event()
        self._workers = []
        self._next_gateway = itertools.count()
        self._serial = itertools.count()

    # --- requests ---------------------------------------------------------------------------

    def _exchange(self, gateway, method, path, headers, body):
        host, port = gateway.rsplit(":", 1)
        conn = http.client.HTTPConnection(host, int(port), timeout=CLIENT_TIMEOUT_S)
        try:
            conn.request(method, path, body=body, headers=headers)
            r = conn.getresponse()
            return r.status, r.getheader("Retry-After"), r.read()
        finally:
            conn.close()

    def _send(self, kind, method, path, headers, body=None):
        record = Record(kind, time.monotonic())
        gateways = self.target.gateways
        first = next(self._next_gateway)
        for attempt in range(len(gateways)):
            gateway = gateways[(first + attempt) % len(gateways)]
            record.gateway = gateway
            try:
                record.status, record.retry_after, record.body = self._exchange(
                    gateway, method, path, headers, body)
                record.error = None
                break
            except ConnectionRefusedError:
                # Nothing was sent: a load balancer tries the next replica.
                record.error = "refused"
            except socket.timeout:
                record.error = "timeout"
                break
            except (ConnectionError, http.client.HTTPException, OSError) as e:
                # Cut while under way: it may or may not have been done; not sent again.
                record.error = f"cut: {type(e).__name__}"
                break
        record.ended = time.monotonic()
        self.records.append(record)
        return record

    def _read(self):
        t = self.target
        self._send("read", "GET", f"/v1/links/{t.link_uuid}/", {"Authorization": f"Bearer {t.key}"})

    def _list(self):
        t = self.target
        self._send("list", "GET", f"/v1/links/{t.link_uuid}/responses/?page_size=5",
                   {"Authorization": f"Bearer {t.key}"})

    def _create(self):
        t = self.target
        name = f"chaos {next(self._serial)} {uuid.uuid4().hex[:8]}"
        body = json.dumps({"name": name, "questions": [{"prompt": "How was it?", "type": "text"}]})
        r = self._send("create", "POST", "/v1/links/",
                       {"Authorization": f"Bearer {t.key}", "Content-Type": "application/json",
                        "Idempotency-Key": uuid.uuid4().hex}, body.encode())
        if r.status == 201:
            self.acked_links[json.loads(r.body)["uuid"]] = name

    def _submit(self):
        t = self.target
        text = f"chaos answer {uuid.uuid4().hex}"
        body = json.dumps({"respondent_email": "chaos@example.com",
                           "answers": {"why": text, "score": 7}})
        r = self._send("submit", "POST", f"/i/{t.slug}/submit/",
                       {"Host": t.host, "Content-Type": "application/json"}, body.encode())
        if r.status == 201:
            self.acked_responses[json.loads(r.body)["uuid"]] = text

    # --- threads ----------------------------------------------------------------------------

    def _loop(self, step):
        while not self.stop_event.is_set():
            step()
            time.sleep(0.005)

    def start(self):
        steps = {"read": self._read, "create": self._create, "submit": self._submit, "list": self._list}
        for kind, n in self.threads.items():
            for _ in range(n):
                w = threading.Thread(target=self._loop, args=(steps[kind],), daemon=True)
                w.start()
                self._workers.append(w)

    def stop(self):
        self.stop_event.set()
        for w in self._workers:
            w.join(CLIENT_TIMEOUT_S + 5)
