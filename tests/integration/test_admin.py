"""The gateway's admin port: health, readiness, metrics."""
import urllib.request

from harness import ENV, ExtraProcess, Workspace, expect, request, test


def admin(path):
    try:
        with urllib.request.urlopen(ENV["ADMIN_URL"] + path, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


@test
def health_readiness_and_metrics():
    assert admin("healthz") == (200, '{"status":"ok"}')
    assert admin("readyz")[0] == 200
    ws = Workspace()
    expect(ws.call("GET", "tokens/"), 200)
    status, text = admin("metrics")
    assert status == 200
    assert 'gateway_http_responses_total{class="2xx"}' in text, text
    assert "gateway_open_connections" in text
    assert 'gateway_key_cache_total{outcome="hit"}' in text


def buf_curl(*args, ok=True):
    import os
    import subprocess
    from harness import ROOT
    buf = os.path.join(ROOT, ".tools", "node_modules", ".bin", "buf")
    r = subprocess.run([buf, "curl", "--protocol", "grpc", "--http2-prior-knowledge", *args],
                       capture_output=True, text=True, timeout=60)
    if ok:
        assert r.returncode == 0, f"buf curl {args}: {r.stderr}"
        return r.stdout
    return r.stderr


@test
def services_answer_grpc_health_and_reflection():
    import json
    import os
    schema = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemas")
    for addr in (ENV["TOKENS_ADDR"], ENV["LINKS_ADDR"]):
        health = json.loads(buf_curl("--schema", schema, "--data", "{}",
                                     f"http://{addr}/grpc.health.v1.Health/Check"))
        assert health == {"status": "SERVING"}, health
    # These calls find their schema through server reflection alone, and get the contract's
    # error as a gRPC status.
    unknown_key = buf_curl("--data", '{"key_hash": "' + "0" * 64 + '"}', ok=False,
                           *[f"http://{ENV['TOKENS_ADDR']}/feedback.tokens.v1.TokensService/VerifyKey"])
    assert "unauthenticated" in unknown_key, unknown_key
    no_link = buf_curl("--data", '{"link_uuid": "not-a-uuid"}', ok=False,
                       *[f"http://{ENV['LINKS_ADDR']}/feedback.links.v1.LinksService/GetLink"])
    assert "not_found" in no_link, no_link


@test
def services_have_health_readiness_and_metrics():
    ws = Workspace()
    expect(ws.call("GET", "links/"), 200)
    for url, method in ((ENV["TOKENS_ADMIN_URL"], "VerifyKey"), (ENV["LINKS_ADMIN_URL"], "ListLinks")):
        for path, expected in (("healthz", '{"status":"ok"}'), ("readyz", '{"status":"ready"}')):
            with urllib.request.urlopen(url + path, timeout=10) as r:
                assert (r.status, r.read().decode()) == (200, expected)
        with urllib.request.urlopen(url + "metrics", timeout=10) as r:
            text = r.read().decode()
        assert f'rpc_total{{method="{method}",code="OK"}}' in text, text
        assert f'rpc_duration_seconds_bucket{{method="{method}",le="+Inf"}}' in text, text
        assert "pg_pool_queue_depth 0" in text and "pg_pool_healthy 1" in text, text
        assert "redis_connected 1" in text, text


@test
def requests_are_counted_and_timed_per_route():
    ws = Workspace()
    link = ws.link()
    for _ in range(3):
        expect(ws.call("GET", f"links/{link['uuid']}/"), 200)
    expect(ws.call("GET", "links/no-such-thing/"), 404)
    _, text = admin("metrics")
    lines = {line.rsplit(" ", 1)[0]: int(float(line.rsplit(" ", 1)[1])) for line in text.splitlines()
             if line.startswith("gateway_route_")}
    labels = 'route="/v1/links/{uuid}/",method="GET"'
    assert lines.get(f'gateway_route_requests_total{{{labels},class="2xx"}}', 0) >= 3, text[-2000:]
    assert lines.get(f'gateway_route_duration_seconds_count{{{labels}}}', 0) >= 3
    assert lines.get(f'gateway_route_duration_seconds_bucket{{{labels},le="+Inf"}}', 0) >= 3
    assert lines.get('gateway_route_requests_total{route="unmatched",method="any",class="4xx"}', 0) >= 1


@test
def a_requests_trace_reaches_its_log_lines():
    trace_id = "4bf92f3577b34da6a3ce929d0e0e4736"
    ws = Workspace()
    with ExtraProcess("gateway", log_name="gateway-traced", ACCESS_LOG="true") as gw:
        r = request("GET", "/v1/tokens/", key=ws.key, gateway=f"127.0.0.1:{gw.port}",
                    headers={"traceparent": f"00-{trace_id}-00f067aa0ba902b7-01"})
        expect(r, 200)
        untraced = request("GET", "/v1/tokens/", key=ws.key, gateway=f"127.0.0.1:{gw.port}")
        expect(untraced, 200)
    with open(gw.log_path) as f:
        lines = [line for line in f if '"event":"request"' in line]
    mine = [line for line in lines if r.header("X-Request-Id") in line]
    assert mine and f'"trace_id":"{trace_id}"' in mine[0], mine
    # Without one, a trace of its own.
    other = [line for line in lines if untraced.header("X-Request-Id") in line]
    assert other and '"trace_id":"' in other[0] and trace_id not in other[0], other
