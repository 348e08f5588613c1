"""Rate limits shared by the gateway replicas (docs/api.md "Plans and rate limits"): the window
holds across replicas, plan and rate changes apply at once, Redis down leaves local limits,
intake calls count per client address and link."""
import concurrent.futures
import os
import threading
import time

from harness import (ENV, GATEWAYS, ROOT, Workspace, expect, feedbackctl, intake, metrics, redis,
                     stack_unit_tests, request, stack, test, test_beside, wait_until)
from test_link_cache import SecondGateway, _in_flight_then_revoked


def _local_decisions(admin_url):
    m = metrics(admin_url)
    return sum(v for k, v in m.items()
               if k.startswith('gateway_rate_limit_decisions_total{source="local"'))


def _int(r, name):
    v = r.header(name)
    assert v is not None and v.isdigit(), f"{name}: {v!r} in {r!r}"
    return int(v)


@test_beside
def a_free_key_hammered_through_two_replicas_never_exceeds_its_limit_in_any_minute():
    assert len(GATEWAYS) >= 2, f"the test stack runs two gateway replicas, got {GATEWAYS}"
    ws = Workspace(plan="free", rate_limit=None)
    admins = ENV["ADMIN_URLS"].split(",")
    local_before = [_local_decisions(admin) for admin in admins]
    answers, lock = [], threading.Lock()
    deadline = time.monotonic() + 70

    def hammer(gateway):
        while time.monotonic() < deadline:
            sent = time.monotonic()
            r = ws.call("GET", "links/", gateway=gateway)
            with lock:
                answers.append((sent, time.monotonic(), r))
            time.sleep(0.01)

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        list(pool.map(hammer, GATEWAYS * 2))
    # Shared limits all along: a replica deciding alone (Redis silent, fail open) would
    # rightly admit more, and this test would not be about the shared window.
    assert [_local_decisions(admin) for admin in admins] == local_before, "Redis was silent"
    admitted = sorted((s, e) for s, e, r in answers if r.status == 200)
    refused = [r for _, _, r in answers if r.status != 200]
    assert all(r.status == 429 for r in refused), {r.status for r in refused}
    assert len(answers) > 1000, len(answers)
    # Every admitted request was decided between its sending and its answer; those decided
    # within 59 s after one was sent lie in one 60-second window of the limiter.
    for start, _ in admitted:
        window = [1 for s, e in admitted if s >= start and e < start + 59]
        assert len(window) <= 30, f"{len(window)} admitted within 59 s from {start}"
    # No fewer than the limit allows: 30 at once, and 30 more once the first ones leave.
    first = admitted[0][0]
    assert len([s for s, _ in admitted if s < first + 5]) == 30, admitted[:35]
    assert len(admitted) >= 60, len(admitted)
    for r in refused[:50]:
        expect(r, 429, "RATE_LIMITED")
        assert 1 <= _int(r, "Retry-After") <= 60 and _int(r, "RateLimit-Remaining") == 0, r
        assert r.header("RateLimit-Policy") == '"default";q=30;w=60', r.header("RateLimit-Policy")


@test
def plan_and_rate_changes_through_feedbackctl_apply_on_every_replica_within_a_second():
    ws = Workspace(plan="free", rate_limit=None)
    for _ in range(30):
        expect(ws.call("GET", "tokens/"), 200)
    for gateway in GATEWAYS:
        expect(ws.call("GET", "tokens/", gateway=gateway), 429, "RATE_LIMITED")
    r = feedbackctl("workspace", "set-plan", ws.uuid, "pro")
    assert r.returncode == 0, r.stderr
    changed = time.monotonic()
    for gateway in GATEWAYS:
        ok = expect_soon(lambda: ws.call("GET", "tokens/", gateway=gateway), changed)
        assert _int(ok, "RateLimit-Limit") == 120, ok.headers
    # A custom rate, lower than what was used already: refused at once everywhere.
    r = feedbackctl("workspace", "set-plan", ws.uuid, "enterprise", "--rate-limit", "5")
    assert r.returncode == 0, r.stderr
    for gateway in GATEWAYS:
        refused = ws.call("GET", "tokens/", gateway=gateway)
        expect(refused, 429, "RATE_LIMITED")
        assert _int(refused, "RateLimit-Limit") == 5
    r = feedbackctl("workspace", "set-plan", ws.uuid, "enterprise", "--rate-limit", "plan")
    assert r.returncode == 0 and '"plan": "enterprise"' in r.stdout.replace('":"', '": "'), r.stdout
    assert _int(expect_soon(lambda: ws.call("GET", "tokens/"), time.monotonic()),
                "RateLimit-Limit") == 600


def expect_soon(call, since):
    """The first 200 of `call`, which must come within a second of `since`."""
    while True:
        r = call()
        if r.status == 200:
            return r
        assert r.status == 429, r
        assert time.monotonic() - since < 1.0, f"still refused a second after the change: {r!r}"
        time.sleep(0.05)


def _intake_on(gateway, ws, method, path, forwarded=None, **kw):
    """A public intake call on `gateway` (a SecondGateway), for the client `forwarded` names."""
    headers = {"Host": ws.info["host"]}
    if forwarded:
        headers["X-Forwarded-For"] = forwarded
    return request(method, path, headers=headers, gateway=f"127.0.0.1:{gateway.port}", **kw)


@test
def intake_calls_are_limited_per_client_address_and_link():
    ws = Workspace()
    ws.link(slug="limited", questions=[{"prompt": "Why?", "field_key": "why"}])
    ws.link(slug="other", questions=[{"prompt": "Why?", "field_key": "why"}])
    with SecondGateway(INTAKE_RATE_LIMIT="5", TRUSTED_PROXIES="127.0.0.1") as b:
        def form(slug, forwarded=None):
            return _intake_on(b, ws, "GET", f"/i/{slug}/form/", forwarded)

        for i in range(5):
            r = form("limited", "198.51.100.7")
            expect(r, 200)
            assert _int(r, "RateLimit-Remaining") == 4 - i and _int(r, "RateLimit-Limit") == 5
        refused = form("limited", "198.51.100.7")
        expect(refused, 429, "RATE_LIMITED")
        assert _int(refused, "Retry-After") >= 1
        # A respondent's double click on submit is refused the same way.
        expect(_intake_on(b, ws, "POST", "/i/limited/submit/", "198.51.100.7",
                          json={"answers": {"why": "x"}}), 429, "RATE_LIMITED")
        expect(form("other", "198.51.100.7"), 200)     # another link
        expect(form("limited", "198.51.100.8"), 200)   # another respondent behind the proxy
        # What a client writes itself in front of the proxy's entry changes nothing.
        expect(form("limited", "203.0.113.1, 198.51.100.7"), 429, "RATE_LIMITED")


@test
def page_views_count_in_each_replicas_own_window_and_leave_the_shared_one_alone():
    ws = Workspace()
    ws.link(slug="viewed", questions=[{"prompt": "Why?", "field_key": "why"}])
    with SecondGateway(INTAKE_RATE_LIMIT="5", TRUSTED_PROXIES="127.0.0.1") as b:
        def on_b(path, address):
            return _intake_on(b, ws, "GET", path, address)
        admin = b.admin_url
        before = metrics(admin).get('gateway_rate_limit_decisions_total{source="replica",'
                                    'outcome="admitted"}', 0)
        for i in range(5):
            r = on_b("/i/viewed", "198.51.100.9")
            expect(r, 200)
            assert _int(r, "RateLimit-Remaining") == 4 - i and _int(r, "RateLimit-Limit") == 5
        refused = on_b("/i/viewed", "198.51.100.9")
        expect(refused, 429, "RATE_LIMITED")
        assert _int(refused, "Retry-After") >= 1
        assert metrics(admin)['gateway_rate_limit_decisions_total{source="replica",'
                              'outcome="admitted"}'] == before + 5
        # Nothing was written to the shared window: the respondent's calls still have it all.
        assert redis("EXISTS", f"fb:rate:{{intake:{ws.uuid}:viewed:198.51.100.9}}") == "0"
        r = on_b("/i/viewed/form/", "198.51.100.9")
        expect(r, 200)
        assert _int(r, "RateLimit-Remaining") == 4
        # Another replica's own window: the page is viewed there afresh.
        expect(request("GET", "/i/viewed", headers={"Host": ws.info["host"]}), 200)


@test
def the_redis_window_script_agrees_with_the_reference_arithmetic():
    stack_unit_tests("services/gateway/gateway_tests", "[.redis]")


@test
def a_revocation_missed_while_the_channel_reconnects_still_fails_requests_in_flight():
    ws = Workspace()
    with SecondGateway() as b:
        def revoke_while_b_is_not_listening(uuid):
            # Every subscriber connection is dropped; B reconnects 250 ms later, so the
            # revocation published meanwhile never reaches it.
            redis("CLIENT", "KILL", "TYPE", "pubsub")
            return ws.call("DELETE", f"tokens/{uuid}/")

        r = _in_flight_then_revoked(ws, lambda key: b.call(ws, "GET", "links/", key=key),
                                    revoke_while_b_is_not_listening)
    expect(r, 401, "INVALID_API_KEY")


@test
def redis_down_leaves_local_limits_on_each_replica_and_its_return_restores_shared_ones():
    ws = Workspace(plan="free", rate_limit=None)
    expect(ws.call("GET", "tokens/"), 200)  # the key record is cached and counted
    admin = ENV["ADMIN_URL"]
    with SecondGateway(RATE_LIMIT_FAIL_MODE="closed") as closed:
        stack("stop-service", "redis")
        try:
            # Fail open: each replica counts on its own, up to the key's limit.
            for gateway in GATEWAYS[:1]:
                statuses = [ws.call("GET", "tokens/", gateway=gateway).status for _ in range(32)]
                assert statuses[:30] == [200] * 30 and statuses[30:] == [429, 429], statuses
            assert metrics(admin)["gateway_rate_limit_degraded"] == 1
            assert metrics(admin)['gateway_rate_limit_decisions_total{source="local",outcome="admitted"}'] >= 30
            # Fail closed: 503 with Retry-After.
            r = closed.call(ws, "GET", "tokens/")
            expect(r, 503, "SERVICE_UNAVAILABLE")
            assert r.header("Retry-After") == "1"
        finally:
            stack("start-service", "redis")
    # Back to the shared window by itself (empty again: this Redis keeps no data).
    wait_until(lambda: ws.call("GET", "tokens/").status == 200 and
               metrics(admin)["gateway_rate_limit_degraded"] == 0, what="shared limits again")
    before = metrics(admin)['gateway_rate_limit_decisions_total{source="shared",outcome="admitted"}']
    for gateway in GATEWAYS:
        expect(ws.call("GET", "tokens/", gateway=gateway), 200)
    after = metrics(admin)['gateway_rate_limit_decisions_total{source="shared",outcome="admitted"}']
    assert after >= before + 1, (before, after)
    with open(os.path.join(os.environ.get("STACK_DIR", os.path.join(ROOT, ".run")), "logs",
                           "gateway.log")) as f:
        log = f.read()
    # One warning per change of mode, not one per request.
    assert log.count('"event":"rate_limits_degraded"') <= log.count('"event":"rate_limits_shared_again"') + 1


def _refused_without_lookup(admin_url):
    return metrics(admin_url).get('gateway_key_cache_total{outcome="refused_without_lookup"}', 0)


@test
def a_key_over_its_limit_is_refused_without_a_lookup_yet_its_revocation_still_answers_401():
    ws = Workspace(plan="free", rate_limit=None)
    tok = ws.token(["links:read"])
    gateway, admin = GATEWAYS[0], ENV["ADMIN_URLS"].split(",")[0]
    before = _refused_without_lookup(admin)
    statuses = [ws.call("GET", "links/", key=tok["key"], gateway=gateway).status for _ in range(60)]
    assert statuses.count(200) == 30 and set(statuses[30:]) == {429}, statuses
    # Each connection lives on one of the gateway's loops; each loop keeps its own refusals.
    assert _refused_without_lookup(admin) - before >= 10, _refused_without_lookup(admin) - before
    refused = ws.call("GET", "links/", key=tok["key"], gateway=gateway)
    assert refused.status == 429 and refused.header("Retry-After"), refused
    expect(ws.call("DELETE", f"tokens/{tok['uuid']}/", gateway=gateway), 200)
    expect(ws.call("GET", "links/", key=tok["key"], gateway=gateway), 401)
