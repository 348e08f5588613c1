"""The gateway's link document cache: never older than an acknowledged write, on any replica,
and bypassed (not trusted) while Redis is down."""
import os
import time

from harness import STACK_DIR, Workspace, expect, redis, sql, stack, test, wait_until
import harness


class SecondGateway(harness.ExtraProcess):
    """Another gateway replica on the same services, PostgreSQL and Redis."""

    def __init__(self, **settings):
        super().__init__("gateway", **settings)

    def call(self, ws, method, path, **kw):
        saved = harness._base
        harness._base = harness.urllib.parse.urlsplit(f"http://127.0.0.1:{self.port}/v1/")
        try:
            return ws.call(method, path, **kw)
        finally:
            harness._base = saved


@test
def a_change_through_one_replica_is_seen_at_once_through_another():
    ws = Workspace()
    link = ws.link(name="Original", questions=[{"prompt": "First", "field_key": "first"}])
    with SecondGateway() as b:
        for _ in range(3):  # B now has the document cached
            assert expect(b.call(ws, "GET", f"links/{link['uuid']}/"), 200)["name"] == "Original"
        for i in range(20):
            expect(ws.call("PATCH", f"links/{link['uuid']}/", json={"name": f"Renamed {i}"}), 200)
            got = expect(b.call(ws, "GET", f"links/{link['uuid']}/"), 200)
            assert got["name"] == f"Renamed {i}", f"replica B served a stale document: {got['name']}"
        expect(ws.call("PATCH", f"links/{link['uuid']}/", json={"questions": []}), 200)
        assert expect(b.call(ws, "GET", f"links/{link['uuid']}/"), 200)["questions"] == []
        expect(ws.call("DELETE", f"links/{link['uuid']}/"), 200)
        expect(b.call(ws, "GET", f"links/{link['uuid']}/"), 404, None)


@test
def cached_documents_are_per_workspace():
    a, other = Workspace(), Workspace()
    link = a.link()
    for _ in range(2):
        expect(a.call("GET", f"links/{link['uuid']}/"), 200)
    expect(other.call("GET", f"links/{link['uuid']}/"), 404, None)


@test
def versions_are_recorded_and_raised():
    ws = Workspace()
    link = ws.link()
    key = "fb:link:{" + link["uuid"] + "}"
    expect(ws.call("GET", f"links/{link['uuid']}/"), 200)
    wait_until(lambda: redis("GET", key) == "1", what="version filled after the first read")
    expect(ws.call("PATCH", f"links/{link['uuid']}/", json={"status": "paused"}), 200)
    assert redis("GET", key) == "2"
    assert sql(f"SELECT version FROM links.links WHERE uuid = '{link['uuid']}'") == [["2"]]
    expect(ws.call("DELETE", f"links/{link['uuid']}/"), 200)
    assert redis("GET", key) == str(2**63 - 1)


@test
def redis_down_reads_bypass_the_cache_and_changes_are_refused():
    ws = Workspace()
    link = ws.link(name="Before outage")
    expect(ws.call("GET", f"links/{link['uuid']}/"), 200)
    stack("stop-service", "redis")
    try:
        assert expect(ws.call("GET", f"links/{link['uuid']}/"), 200)["name"] == "Before outage"
        r = ws.call("PATCH", f"links/{link['uuid']}/", json={"name": "During outage"})
        expect(r, 503, "SERVICE_UNAVAILABLE")
        assert r.header("Retry-After") == "1"
        expect(ws.call("DELETE", f"links/{link['uuid']}/"), 503, "SERVICE_UNAVAILABLE")
        # Not acknowledged, so not done.
        assert sql(f"SELECT name, version FROM links.links WHERE uuid = '{link['uuid']}'") == [
            ["Before outage", "1"]]
        # Creating needs no version: it works while Redis is down.
        ws.link(name="Made during outage")
    finally:
        stack("start-service", "redis")
    wait_until(lambda: ws.call("PATCH", f"links/{link['uuid']}/", json={"name": "After"}).status == 200,
               what="PATCH after Redis is back")
    assert expect(ws.call("GET", f"links/{link['uuid']}/"), 200)["name"] == "After"


def _in_flight_then_revoked(ws, in_flight_call, revoke_call):
    """Starts a request that reaches the links service, freezes that service so the request
    stays in flight, revokes the request's key, then lets the service answer."""
    import signal
    import threading
    tok = ws.token()
    pid = int(open(os.path.join(STACK_DIR, "pids", "links.pid")).read())
    result = {}
    os.kill(pid, signal.SIGSTOP)
    try:
        t = threading.Thread(target=lambda: result.update(r=in_flight_call(tok["key"])))
        t.start()
        time.sleep(0.5)
        expect(revoke_call(tok["uuid"]), 200)
        time.sleep(0.3)
    finally:
        os.kill(pid, signal.SIGCONT)
    t.join(timeout=30)
    return result["r"]


@test
def a_request_in_flight_when_its_key_is_revoked_answers_401():
    ws = Workspace()
    r = _in_flight_then_revoked(ws, lambda key: ws.call("GET", "links/", key=key),
                                lambda uuid: ws.call("DELETE", f"tokens/{uuid}/"))
    expect(r, 401, "INVALID_API_KEY")
    expect(ws.call("GET", "links/"), 200)


@test
def a_revocation_through_one_replica_fails_requests_in_flight_on_another():
    ws = Workspace()
    with SecondGateway() as b:
        r = _in_flight_then_revoked(ws, lambda key: b.call(ws, "GET", "links/", key=key),
                                    lambda uuid: ws.call("DELETE", f"tokens/{uuid}/"))
    expect(r, 401, "INVALID_API_KEY")


@test
def access_log_names_every_request():
    import json
    ws = Workspace()
    with SecondGateway(ACCESS_LOG="true") as b:
        expect(b.call(ws, "GET", "tokens/", headers={"X-Request-Id": "access-log-probe"}), 200)
        expect(b.call(ws, "GET", "nowhere/", headers={"X-Request-Id": "access-log-404"}), 404, None)
        time.sleep(0.2)
        with open(b.log_path) as f:
            lines = [json.loads(line) for line in f if '"event":"request"' in line]
    mine = {line["request_id"]: line for line in lines}
    assert mine["access-log-probe"]["status"] == 200 and mine["access-log-probe"]["path"] == "/v1/tokens/"
    assert mine["access-log-404"]["status"] == 404
    assert isinstance(mine["access-log-probe"]["duration_ms"], float)
