"""Secrets never show: API keys, response tokens and webhook secrets appear in no log line,
no /metrics and no error body, whatever the run before did with them (this module runs last,
so the logs it reads are the whole suite's)."""
import glob
import os
import re

from harness import STACK_DIR, Workspace, admin_urls, expect, metrics, request, test

SECRET_SHAPES = {"API key": re.compile(r"sk_live_[A-Za-z0-9]{32,}"),
                 "webhook secret": re.compile(r"whsec_[A-Za-z0-9+/]{40,}")}


def _everything_written():
    texts = {}
    for path in glob.glob(os.path.join(STACK_DIR, "logs", "*.log")):
        with open(path, errors="replace") as f:
            texts[path] = f.read()
    for url in admin_urls():
        texts[f"{url}metrics"] = "\n".join(f"{series} {value}" for series, value in metrics(url).items())
    return texts


@test
def no_secret_appears_in_logs_metrics_or_error_bodies():
    ws = Workspace()
    ws.link(slug="secrets", questions=[{"prompt": "Why?", "type": "text", "field_key": "why"}])
    started = ws.start("secrets")
    secret = "whsec_" + "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldCE="
    expect(ws.call("POST", f"workspaces/{ws.uuid}/webhooks/",
                   json={"url": "https://example.com/hook", "events": ["response.submitted"], "secret": secret}), 201)
    # Near misses and misuse: none of the answers may carry what was sent.
    wrong_key = ws.key[:-1] + ("A" if ws.key[-1] != "A" else "B")
    wrong_token = started["token"][:-1] + ("A" if started["token"][-1] != "A" else "B")
    answers = [
        request("GET", "/v1/links/", key=wrong_key),
        request("GET", "/v1/links/", headers={"Authorization": f"Basic {ws.key}"}),
        ws.intake("PUT", f"/i/secrets/responses/{started['uuid']}/answers/why/", token=wrong_token,
                  json={"value": "x"}),
        ws.intake("PUT", f"/i/secrets/responses/{started['uuid']}/answers/nope/", token=started["token"],
                  json={"value": "x"}),
    ]
    for r in answers:
        assert r.status >= 400, r.status
        for value in (ws.key, wrong_key, started["token"], wrong_token, secret):
            assert value not in r.body.decode(errors="replace"), f"an error body ({r.status}) carries a secret"
    for where, text in _everything_written().items():
        for value in (ws.key, wrong_key, started["token"], wrong_token, secret):
            assert value not in text, f"{where} carries a secret this test sent"
        for kind, shape in SECRET_SHAPES.items():
            found = shape.search(text)
            assert not found, f"{where} carries an {kind}: {found.group(0)[:12]}..."
