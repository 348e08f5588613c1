"""The faults scripts/chaos injects, one at a time: a process killed with SIGKILL and started
again, PostgreSQL restarted, Redis stopped for a while, a webhook receiver that stops answering.
Each fault's restore() returns the moment the dependency was back (its own readiness: the
process's /readyz, pg_isready, Redis's PING, the receiver answering), from which the system's
recovery is measured."""
import os
import signal
import subprocess
import threading
import time
import urllib.request

import harness


def _ready(url):
    try:
        with urllib.request.urlopen(url, timeout=1) as r:
            return r.status == 200
    except OSError:
        return False


def _wait(predicate, what, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return time.monotonic()
        time.sleep(0.02)
    raise RuntimeError(f"chaos: {what} did not come back within {timeout} s")


def _start_service(name):
    """scripts/stack start-service on a thread of its own: it also waits for the gateways to
    reach the service again, which is part of what the load measures, not of its return."""
    done = threading.Event()

    def run():
        try:
            harness.stack("start-service", name)
        finally:
            done.set()

    threading.Thread(target=run, daemon=True).start()
    return done


class Fault:
    # The gateway (host:port) this fault kills: requests it held are cut, and its recovery is
    # its own first answers.
    gateway = None

    def __init__(self, name, down_s):
        self.name, self.down_s = name, down_s
        self.injected_at = self.returned_at = self.returned_wall = None

    def run(self):
        self.injected_at = time.monotonic()
        self.inject()
        time.sleep(self.down_s)
        self.restore()
        self.returned_wall = time.time() - (time.monotonic() - self.returned_at)

    def inject(self):
        raise NotImplementedError

    def restore(self):
        raise NotImplementedError


class KillProcess(Fault):
    """SIGKILL: no drain, no goodbye; then started again as a rollout would."""

    def __init__(self, process, down_s):
        super().__init__(f"SIGKILL {process}", down_s)
        self.process = process
        if process.startswith("gateway"):
            self.gateway = harness.GATEWAYS[self._index()]

    def _index(self):
        return 0 if self.process == "gateway" else int(self.process.split("-")[1]) - 1

    def _admin_url(self):
        if self.gateway:
            return harness.ENV["ADMIN_URLS"].split(",")[self._index()]
        return harness.ENV[f"{self.process.upper()}_ADMIN_URL"]

    def inject(self):
        pid = int(open(os.path.join(harness.STACK_DIR, "pids", f"{self.process}.pid")).read())
        os.kill(pid, signal.SIGKILL)
        _wait(lambda: not os.path.exists(f"/proc/{pid}") or
              open(f"/proc/{pid}/stat").read().split()[2] == "Z", f"{self.process} to die", 10)

    def restore(self):
        done = _start_service(self.process)
        self.returned_at = _wait(lambda: _ready(self._admin_url() + "readyz"), self.process)
        done.wait(60)


class RestartPostgres(Fault):
    def __init__(self, down_s):
        super().__init__("PostgreSQL restarted", down_s)

    def inject(self):
        harness.stack("stop-service", "postgres")

    def restore(self):
        harness.stack("start-service", "postgres")
        port = harness.ENV["PG_PORT"]
        self.returned_at = _wait(lambda: subprocess.run(
            ["pg_isready", "-q", "-h", "127.0.0.1", "-p", port], timeout=5).returncode == 0,
            "PostgreSQL")


class StopRedis(Fault):
    def __init__(self, down_s):
        super().__init__(f"Redis stopped for {down_s:g} s", down_s)

    def inject(self):
        harness.stack("stop-service", "redis")

    def restore(self):
        harness.stack("start-service", "redis")
        self.returned_at = _wait(lambda: harness.redis("PING") == "PONG", "Redis")


class HangReceiver(Fault):
    """The webhook receiver takes deliveries and never answers them, then answers again."""

    def __init__(self, receiver, endpoint, down_s):
        super().__init__(f"webhook receiver hung for {down_s:g} s", down_s)
        self.receiver, self.endpoint = receiver, endpoint

    def inject(self):
        self.endpoint.hang = True

    def restore(self):
        self.endpoint.hang = False
        self.receiver.release_hung()
        self.returned_at = time.monotonic()


def plan(quick, receiver, endpoint):
    """The faults, in the order they are injected. Those that leave deliveries to retry (a
    hung receiver, a dispatcher killed holding leased sends) come first, so that their retries
    are due before the load ends."""
    if quick:
        return [HangReceiver(receiver, endpoint, 5), KillProcess("webhooks", 1),
                KillProcess("gateway", 1), KillProcess("responses", 1), KillProcess("webhooks", 1),
                RestartPostgres(1), StopRedis(5)]
    return [HangReceiver(receiver, endpoint, 15), KillProcess("webhooks", 2),
            KillProcess("gateway", 2), KillProcess("gateway-2", 2), KillProcess("tokens", 2),
            KillProcess("links", 2), KillProcess("responses", 2), RestartPostgres(2),
            StopRedis(30)]
