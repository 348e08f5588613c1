"""Integration-test harness: a private stack's settings, an HTTP client, workspaces made with
feedbackctl, database and Redis probes, and a small runner that ends with
'N passed, M failed'."""
import concurrent.futures
import http.client
import json as jsonlib
import os
import random
import shlex
import socket
import subprocess
import sys
import time
import traceback
import urllib.parse
import urllib.request
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STACK_DIR = os.environ.get("STACK_DIR", os.path.join(ROOT, ".run"))
TESTS = []
# Tests that mostly wait (a minute of paced calls): run() runs them in threads beside the others.
BESIDE = []


def load_stack_env():
    env = {}
    with open(os.path.join(STACK_DIR, "stack.env")) as f:
        for line in f:
            line = line.strip()
            if "=" in line and not line.startswith("#"):
                k, v = line.split("=", 1)
                env[k] = v[1:-1] if v.startswith('"') and v.endswith('"') else v
    return env


ENV = load_stack_env()
BASE_URL = ENV["BASE_URL"]
_base = urllib.parse.urlsplit(BASE_URL)
# host:port of every gateway replica (scripts/stack up with GATEWAY_REPLICAS=N).
GATEWAYS = ENV.get("GATEWAY_ADDRS", ENV["GATEWAY_ADDR"]).split(",")


def test(fn):
    TESTS.append(fn)
    return fn


def test_beside(fn):
    """A test that spends its time waiting, and needs a whole stack while it does: it starts with
    the run, in a thread, and ends before the first module that stops or stalls part of the
    stack."""
    BESIDE.append(fn)
    return fn


class Resp:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    @property
    def json(self):
        try:
            return jsonlib.loads(self.body.decode())
        except ValueError:
            return None

    def header(self, name):
        return self.headers.get(name)

    def __repr__(self):
        return f"{self.status} {self.body[:300]!r}"


def request(method, path, key=None, json=None, body=None, headers=None, timeout=15,
            gateway=None):
    """`gateway`: host:port of the replica to call; the first one by default."""
    h = {"Accept": "application/json"}
    if key:
        h["Authorization"] = f"Bearer {key}"
    if json is not None:
        body = jsonlib.dumps(json).encode()
        h["Content-Type"] = "application/json"
    h.update(headers or {})
    h = {k: v for k, v in h.items() if v is not None}
    target = path if path.startswith("/") else _base.path + path
    conn = http.client.HTTPConnection(gateway or _base.netloc, timeout=timeout)
    try:
        try:
            conn.request(method, target, body=body, headers=h)
        except (BrokenPipeError, ConnectionResetError):
            pass
        r = conn.getresponse()
        return Resp(r.status, r.headers, r.read())
    finally:
        conn.close()


def rss(proc):
    """A process's resident memory in bytes (proc: a Popen or anything with .pid)."""
    with open(f"/proc/{proc.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def raw_exchange(data, timeout=5):
    """Sends raw bytes on a fresh connection and returns what the server sends back."""
    with socket.create_connection((_base.hostname, _base.port), timeout=timeout) as s:
        s.sendall(data)
        chunks = []
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        except socket.timeout:
            pass
        return b"".join(chunks)


def expect(r, status, code="<any>"):
    assert r.status == status, f"expected {status}, got {r!r}"
    if code != "<any>":
        j = r.json
        assert isinstance(j, dict) and isinstance(j.get("error"), dict), f"no error body: {r!r}"
        assert j["error"].get("code") == code, f"expected code {code!r}, got {r!r}"
        assert isinstance(j["error"].get("message"), str) and j["error"]["message"], r
        assert j["error"].get("request_id") == r.header("X-Request-Id"), r
    return r.json


def feedbackctl(*args):
    cmd = shlex.split(ENV["FEEDBACKCTL"]) + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


class Workspace:
    def __init__(self, plan="enterprise", rate_limit=100000, link_quota=None):
        args = ["workspace", "create", "--name", f"it-{uuid.uuid4().hex[:10]}", "--plan", plan]
        if rate_limit is not None:
            args += ["--rate-limit", str(rate_limit)]
        if link_quota is not None:
            args += ["--link-quota", str(link_quota)]
        r = feedbackctl(*args)
        assert r.returncode == 0, f"feedbackctl failed: {r.stderr}"
        self.info = jsonlib.loads(r.stdout)
        self.uuid = self.info["workspace_uuid"]
        self.key = self.info["api_key"]

    def call(self, method, path, **kw):
        kw.setdefault("key", self.key)
        return request(method, path, **kw)

    def token(self, scopes=None, name="tok"):
        body = {"name": name}
        if scopes is not None:
            body["scopes"] = scopes
        return expect(self.call("POST", "tokens/", json=body), 201)

    def link(self, **fields):
        fields.setdefault("name", f"Link {uuid.uuid4().hex[:6]}")
        return expect(self.call("POST", "links/", json=fields), 201)

    # Public intake: the gateway root, the workspace named by the Host header, no API key.
    def intake(self, method, path, token=None, headers=None, **kw):
        return intake(self.info["host"], method, path, token=token, headers=headers, **kw)

    def start(self, slug, email=None):
        """Starts a response; returns {uuid, session_id, token}."""
        return expect(self.intake("POST", f"/i/{slug}/responses/",
                                  json={} if email is None else {"respondent_email": email}), 201)

    def answer(self, slug, started, field_key, value, token=None):
        return self.intake("PUT", f"/i/{slug}/responses/{started['uuid']}/answers/{field_key}/",
                           token=started["token"] if token is None else token, json={"value": value})

    def submit(self, slug, started, answers=None, token=None):
        return self.intake("POST", f"/i/{slug}/responses/{started['uuid']}/submit/",
                           token=started["token"] if token is None else token,
                           json={} if answers is None else {"answers": answers})

    def oneshot(self, slug, answers, email=None):
        body = {"answers": answers}
        if email is not None:
            body["respondent_email"] = email
        return self.intake("POST", f"/i/{slug}/submit/", json=body)

    def complete(self, slug, answers, email=None):
        """A completed response made in one call; returns its record."""
        return expect(self.oneshot(slug, answers, email), 201)


def intake(host, method, path, token=None, headers=None, **kw):
    """A public intake call: `path` from the gateway root (/i/...), sent with `Host: host`."""
    h = {"Host": host}
    if token is not None:
        h["X-Response-Token"] = token
    h.update(headers or {})
    return request(method, path, headers=h, **kw)


def sql(query):
    """Runs one query against the stack's database; returns rows as lists of strings."""
    r = subprocess.run(["psql", ENV["DATABASE_URL"], "-tAX", "-F", "\t", "-c", query],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, f"psql failed: {r.stderr}"
    return [line.split("\t") for line in r.stdout.splitlines() if line]


def sql_json(query):
    """Runs one SELECT; returns its rows as a list of dicts (JSON types, timestamps as text)."""
    r = subprocess.run(["psql", ENV["DATABASE_URL"], "-tAX", "-c",
                        f"SELECT coalesce(json_agg(t), '[]'::json) FROM ({query}) t"],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, f"psql failed: {r.stderr}"
    return jsonlib.loads(r.stdout)


def stack_unit_tests(binary, tag):
    """Runs a unit-test binary's cases tagged `tag` ("[.redis]", "[.pg]"; build/<binary>),
    hidden from the unit run, against the stack's Redis and PostgreSQL; asserts they all
    passed."""
    r = subprocess.run([os.path.join(ROOT, "build", *binary.split("/")), tag],
                       capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, REDIS_PORT=ENV["REDIS_PORT"],
                                DATABASE_URL=ENV["DATABASE_URL"]))
    assert r.returncode == 0 and "All tests passed" in r.stdout, r.stdout[-3000:] + r.stderr[-2000:]


def redis(*args):
    r = subprocess.run(["redis-cli", "-p", ENV["REDIS_PORT"], *args], capture_output=True,
                       timeout=10)
    # Cached key records are binary protobuf.
    return r.stdout.decode("utf-8", "replace").strip()


def stack(*args):
    r = subprocess.run([os.path.join(ROOT, "scripts", "stack"), *args], capture_output=True,
                       text=True, timeout=120, env=dict(os.environ, STACK_DIR=STACK_DIR))
    assert r.returncode == 0, f"scripts/stack {' '.join(args)} failed: {r.stderr}"


def free_port():
    """A free port below the ephemeral range (which outgoing connections may take first)."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            low = int(f.read().split()[0])
    except OSError:
        low = 32768
    while True:
        port = random.randrange(10000, max(low, 10001))
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
                return port
            except OSError:
                pass


def metrics(admin_url):
    """A process's /metrics as {series: value}, the series with its labels."""
    with urllib.request.urlopen(admin_url + "metrics", timeout=5) as r:
        out = {}
        for line in r.read().decode().splitlines():
            if line and not line.startswith("#"):
                name, value = line.rsplit(" ", 1)
                out[name] = float(value)
        return out


def admin_urls():
    """The admin URLs of every process of the stack: the gateways', then the services'."""
    return ENV["ADMIN_URLS"].split(",") + [ENV[f"{s}_ADMIN_URL"] for s in ("TOKENS", "LINKS", "RESPONSES", "WEBHOOKS")]


def webhooks_ready():
    with urllib.request.urlopen(f"{ENV['WEBHOOKS_ADMIN_URL']}readyz", timeout=2) as r:
        return r.status == 200


def dispatch_paused(fn):
    """For a test that reads what the responses service wrote to its outbox: the stack's
    webhooks dispatcher, which empties the outbox as it delivers, is stopped meanwhile."""
    def paused():
        stack("stop-service", "webhooks")
        try:
            fn()
        finally:
            stack("start-service", "webhooks")
            wait_until(webhooks_ready, what="webhooks service back")
    paused.__name__, paused.__module__, paused.__doc__ = fn.__name__, fn.__module__, fn.__doc__
    return paused


class ExtraProcess:
    """One more process of the stack (another replica, or one with other settings) on free
    ports, with the stack's settings plus `settings`; ready when its admin port says so.
    Used as a context manager; kill() ends it with SIGKILL, restart() stops it with SIGTERM
    (a rollout's way) and starts it again on the same ports."""

    PORTS = {"gateway": ("GATEWAY_PORT", "ADMIN_PORT"),
             "tokens": ("TOKENS_PORT", "TOKENS_ADMIN_PORT"),
             "links": ("LINKS_PORT", "LINKS_ADMIN_PORT"),
             "responses": ("RESPONSES_PORT", "RESPONSES_ADMIN_PORT"),
             "webhooks": ("WEBHOOKS_PORT", "WEBHOOKS_ADMIN_PORT")}

    def __init__(self, binary, log_name=None, **settings):
        self.binary, self.settings = binary, settings
        self.log_name = log_name or f"{binary}-2"

    def __enter__(self):
        with open(os.path.join(STACK_DIR, "services.env")) as f:
            self.env = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
        self.port, self.admin_port = free_port(), free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.admin_url = f"http://127.0.0.1:{self.admin_port}/"
        port_name, admin_name = self.PORTS[self.binary]
        self.env.update({port_name: str(self.port), admin_name: str(self.admin_port)}, **self.settings)
        self.log_path = os.path.join(STACK_DIR, "logs", f"{self.log_name}.log")
        self.log = open(self.log_path, "a")
        self._start()
        return self

    def _start(self):
        self.proc = subprocess.Popen([os.path.join(ROOT, "build", "services", self.binary, self.binary)],
                                     env=self.env, stdout=self.log, stderr=subprocess.STDOUT)

        def ready():
            with urllib.request.urlopen(f"{self.admin_url}readyz", timeout=2) as r:
                return r.status == 200

        wait_until(ready, what=f"{self.log_name} ready")

    def restart(self, pause=1.0):
        self.proc.terminate()
        self.proc.wait(timeout=40)
        time.sleep(pause)
        self._start()

    def kill(self):
        self.proc.kill()
        self.proc.wait(timeout=20)

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
        self.log.close()


def wait_until(predicate, timeout=20, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return
        except (AssertionError, OSError):
            pass
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _outcome(fn):
    """(name, seconds, None or the failure's line) of running fn."""
    name = f"{fn.__module__}/{fn.__name__}"
    started = time.monotonic()
    try:
        fn()
        return name, time.monotonic() - started, None
    except Exception as e:  # noqa: BLE001 - every failure is reported with its place
        tb = traceback.extract_tb(e.__traceback__)[-1]
        return name, time.monotonic() - started, f"{type(e).__name__}: {e} ({os.path.basename(tb.filename)}:{tb.lineno})"


def run(modules, only=None, beside_until=None):
    """Runs the tests of `modules` in order; the BESIDE ones run in threads from the start until
    the first test of module `beside_until` or of a module after it (or the end)."""
    for module in modules:
        __import__(module)
    selected = [fn for fn in TESTS + BESIDE if not only or only in f"{fn.__module__}/{fn.__name__}"]
    outcomes = []

    def report(outcome):
        name, _, failure = outcome
        print(f"FAIL {name}: {failure}" if failure else f"PASS {name}", flush=True)
        outcomes.append(outcome)

    pool = concurrent.futures.ThreadPoolExecutor(max(1, len(BESIDE)))
    beside = [pool.submit(_outcome, fn) for fn in BESIDE if fn in selected]

    def join_beside():
        for future in beside:
            report(future.result())
        beside.clear()

    for fn in TESTS:
        if fn not in selected:
            continue
        if beside_until and modules.index(fn.__module__) >= modules.index(beside_until):
            join_beside()
        report(_outcome(fn))
    join_beside()
    pool.shutdown()
    # Where the suite's time goes: the slowest tests.
    for name, seconds, _ in sorted(outcomes, key=lambda o: o[1], reverse=True)[:8]:
        print(f"  slow: {seconds:5.1f} s  {name}")
    failed = sum(1 for o in outcomes if o[2])
    print(f"integration: {len(outcomes) - failed} passed, {failed} failed")
    return 1 if failed else 0
