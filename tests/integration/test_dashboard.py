"""The Grafana dashboard (deploy/grafana/feedback-dashboard.json) asks only for series the
processes export: every metric named in its queries is on some process's /metrics after the
traffic that makes it (an API call, an intake submission, a webhook delivery)."""
import json
import os
import re

from harness import ROOT, Workspace, admin_urls, expect, metrics, test
from test_webhooks import QUESTIONS, _hook, _receiver

DASHBOARD = os.path.join(ROOT, "deploy", "grafana", "feedback-dashboard.json")


def _exported():
    return {re.match(r"[a-zA-Z_:][a-zA-Z0-9_:]*", series).group(0)
            for url in admin_urls() for series in metrics(url)}


def _queried():
    with open(DASHBOARD) as f:
        dashboard = json.load(f)
    names = set()
    for panel in dashboard["panels"]:
        for target in panel["targets"]:
            expr = re.sub(r"\bby \([^)]*\)", "", target["expr"])  # label names, not metrics
            names |= set(re.findall(r"([a-z][a-z0-9_]*)\s*(?=[{\[)])", expr))
    return names


@test
def every_metric_the_dashboard_queries_is_exported():
    ws = Workspace()
    with _receiver() as rx:
        endpoint = rx.endpoint()
        _hook(ws, endpoint.url)
        ws.link(slug="dashboard", questions=QUESTIONS)
        ws.complete("dashboard", {"why": "the dashboard needs a delivery"})
        assert endpoint.wait(1, 10), "no delivery"
    expect(ws.call("GET", "links/"), 200)
    queried, exported = _queried(), _exported()
    assert len(queried) >= 10, queried
    missing = sorted(queried - exported)
    assert not missing, f"the dashboard queries series no process exports: {missing}"
