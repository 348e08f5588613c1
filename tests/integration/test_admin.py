"""The gateway's admin port: health, readiness, metrics."""
import urllib.request

from harness import ENV, Workspace, expect, test


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
