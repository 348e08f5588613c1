"""A dependency down: clean 503s with Retry-After, fail-open auth without Redis, no lost
revocation, and recovery once it is back."""
import hashlib
import urllib.request

from harness import (ENV, Workspace, expect, redis, stack_unit_tests, sql, stack, test,
                     wait_until)


def cache_key(key):
    return "fb:key:{" + hashlib.sha256(key.encode()).hexdigest() + "}"


def _status(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def ready():
    try:
        with urllib.request.urlopen(ENV["ADMIN_URL"] + "readyz", timeout=5) as r:
            return r.status == 200
    except OSError:
        return False


@test
def the_redis_client_answers_on_each_loop_and_reconnects_against_a_real_redis():
    stack_unit_tests("tests/unit/common_tests", "[.redis]")


@test
def sessions_opened_by_the_services_compile_no_statement():
    """A prepared page of responses once compiled code (JIT) on every execution when its table
    grew: common/pg/connect.h turns JIT off for every session ([.pg] cases of common_tests)."""
    stack_unit_tests("tests/unit/common_tests", "[.pg]")


@test
def redis_down_keys_still_verified_and_revocation_refused():
    ws = Workspace()
    tok = ws.token()
    gone = ws.token()
    expect(ws.call("DELETE", f"tokens/{gone['uuid']}/"), 200)
    stack("stop-service", "redis")
    try:
        expect(ws.call("GET", "links/"), 200)
        expect(ws.call("GET", "links/", key=gone["key"]), 401, "INVALID_API_KEY")
        r = ws.call("DELETE", f"tokens/{tok['uuid']}/")
        expect(r, 503, "SERVICE_UNAVAILABLE")
        assert r.header("Retry-After") == "1"
        # Not acknowledged, so not done: the key is still live.
        assert sql(f"SELECT revoked_at IS NULL FROM tokens.api_keys WHERE uuid = '{tok['uuid']}'") == [["t"]]
        expect(ws.call("GET", "links/", key=tok["key"]), 200)
    finally:
        stack("start-service", "redis")
    wait_until(lambda: ws.call("DELETE", f"tokens/{tok['uuid']}/").status == 200, what="revocation")
    expect(ws.call("GET", "links/", key=tok["key"]), 401, "INVALID_API_KEY")


@test
def tokens_down_uncached_keys_503_cached_keys_served():
    ws = Workspace()
    expect(ws.call("GET", "links/"), 200)  # cached now
    fresh = Workspace()
    stack("stop-service", "tokens")
    try:
        r = fresh.call("GET", "links/")
        expect(r, 503, "SERVICE_UNAVAILABLE")
        assert r.header("Retry-After") == "1"
        expect(ws.call("GET", "links/"), 200)
        expect(ws.call("GET", "tokens/"), 503, "SERVICE_UNAVAILABLE")
    finally:
        stack("start-service", "tokens")
    wait_until(lambda: fresh.call("GET", "links/").status == 200, what="tokens back")


@test
def links_down_503_and_not_ready():
    ws = Workspace()
    expect(ws.call("GET", "links/"), 200)
    stack("stop-service", "links")
    try:
        r = ws.call("POST", "links/", json={"name": "while down"})
        expect(r, 503, "SERVICE_UNAVAILABLE")
        assert r.header("Retry-After") == "1"
        wait_until(lambda: not ready(), what="readyz to fail")
    finally:
        stack("start-service", "links")
    wait_until(ready, what="readyz")
    expect(ws.call("GET", "links/"), 200)
    assert sql(f"SELECT count(*) FROM links.links WHERE workspace_uuid = '{ws.uuid}'") == [["0"]]
    assert redis("PING") == "PONG"


@test
def postgres_down_503_cached_reads_served_then_recovery():
    ws = Workspace()
    link = ws.link(name="Cached")
    for _ in range(2):  # cached in the gateway, version recorded
        expect(ws.call("GET", f"links/{link['uuid']}/"), 200)
    stack("stop-service", "postgres")
    try:
        # The cached document needs neither the links service's database nor anything else.
        assert expect(ws.call("GET", f"links/{link['uuid']}/"), 200)["name"] == "Cached"
        for method, path, body in (("GET", "links/", None), ("POST", "links/", {"name": "x"}),
                                   ("PATCH", f"links/{link['uuid']}/", {"name": "y"})):
            r = ws.call(method, path, json=body)
            expect(r, 503, "SERVICE_UNAVAILABLE")
            assert r.header("Retry-After") == "1"
        # Having seen the outage, the links service reports itself not ready.
        assert _status(ENV["LINKS_ADMIN_URL"] + "readyz") == 503
    finally:
        stack("start-service", "postgres")
    # Readiness probes PostgreSQL itself, so it recovers without traffic.
    wait_until(lambda: _status(ENV["LINKS_ADMIN_URL"] + "readyz") == 200, what="links ready again")
    wait_until(lambda: ws.call("GET", "links/").status == 200, what="links service to reconnect")
    # Every worker of every service must come back, not just the first that is asked.
    for _ in range(20):
        expect(ws.call("GET", "links/"), 200)
        expect(ws.call("GET", "tokens/"), 200)
        ws.token()
    expect(ws.call("PATCH", f"links/{link['uuid']}/", json={"name": "After"}), 200)
    assert expect(ws.call("GET", f"links/{link['uuid']}/"), 200)["name"] == "After"
    Workspace()
    assert _status(ENV["LINKS_ADMIN_URL"] + "readyz") == 200


@test
def gateway_drains_requests_in_flight_on_sigterm():
    import os
    import signal
    import threading
    import time
    from harness import STACK_DIR
    ws = Workspace()
    links_pid = int(open(os.path.join(STACK_DIR, "pids", "links.pid")).read())
    gateway_pid = int(open(os.path.join(STACK_DIR, "pids", "gateway.pid")).read())
    result = {}
    os.kill(links_pid, signal.SIGSTOP)
    try:
        t = threading.Thread(target=lambda: result.update(r=ws.call("GET", "links/")))
        t.start()
        time.sleep(0.5)
        os.kill(gateway_pid, signal.SIGTERM)
        time.sleep(0.5)
        # Draining: new connections are refused, the request in flight is still held.
        try:
            ws.call("GET", "links/", timeout=2)
            refused = False
        except (AssertionError, OSError):
            refused = True
        assert refused, "a draining gateway accepted a new request"
    finally:
        os.kill(links_pid, signal.SIGCONT)
    t.join(timeout=30)
    expect(result["r"], 200)
    wait_until(lambda: not os.path.exists(f"/proc/{gateway_pid}") or
               open(f"/proc/{gateway_pid}/status").read().find("State:\tZ") >= 0,
               what="gateway to exit after draining")
    stack("start-service", "gateway")
    wait_until(lambda: ws.call("GET", "links/").status == 200, what="gateway back")
