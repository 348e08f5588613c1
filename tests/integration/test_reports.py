"""Shared reports (docs/api.md "Shared reports"): made, listed and revoked with an API key; the
page at /r/<token> on the workspace's host, with the link's summary as charts and their tables,
never a respondent's email or (without include_text) words; the token kept only as its hash; a
revoked or expired report, or one of a deleted link, a 404 page at once on every gateway."""
import datetime
import hashlib
import re
import urllib.parse

import harness
from harness import Workspace, expect, sql, test

QUESTIONS = [
    {"prompt": "How likely are you to recommend us?", "type": "nps", "field_key": "nps"},
    {"prompt": "Which plan?", "type": "multiple_choice", "field_key": "plan",
     "configuration": {"options": ["basic", "pro"]}},
    {"prompt": "What could be better?", "type": "text", "field_key": "comment"},
    {"prompt": "Rate each", "type": "matrix", "field_key": "grid",
     "configuration": {"rows": [{"id": "speed", "label": "Speed"}, {"id": "price", "label": "Price"}],
                       "columns": [{"id": "bad", "label": "Bad"}, {"id": "good", "label": "Good"}]}},
]


def made(slug):
    ws = Workspace()
    link = ws.link(slug=slug, name=f"Pulse {slug}", questions=QUESTIONS,
                   settings={"description": "What customers told us this quarter"})
    ws.complete(slug, {"nps": 9, "plan": "pro", "comment": "Quokkaville kiosk rejected my ticket",
                       "grid": {"speed": "good", "price": "bad"}}, email="zelda.report@example.com")
    ws.complete(slug, {"nps": 3, "plan": "basic"})
    return ws, link


def page(ws, url, gateway=None):
    """GET of a report's url, sent to a gateway with the url's host."""
    parts = urllib.parse.urlsplit(url)
    return harness.request("GET", parts.path, headers={"Host": parts.netloc, "Accept": "text/html"},
                           gateway=gateway)


def token_of(url):
    return url.rsplit("/", 1)[1]


@test
def a_report_is_made_listed_and_opened():
    ws, link = made("rep-made")
    j = expect(ws.call("POST", f"links/{link['uuid']}/reports/", json={}), 201)
    assert set(j) == {"uuid", "url", "expires_at", "include_text", "date_created"}, j
    assert j["include_text"] is False
    assert re.fullmatch(rf"https://{re.escape(ws.info['host'])}/r/[A-Za-z0-9_-]{{43}}", j["url"]), j["url"]
    fmt = "%Y-%m-%dT%H:%M:%S.%fZ"
    span = datetime.datetime.strptime(j["expires_at"], fmt) - datetime.datetime.strptime(j["date_created"], fmt)
    assert abs(span.total_seconds() - 30 * 86400) < 2, span
    # Only the hash is kept.
    token = token_of(j["url"])
    assert sql(f"SELECT token_hash FROM links.reports WHERE uuid = '{j['uuid']}'")[0][0] == \
        hashlib.sha256(token.encode()).hexdigest()
    assert sql(f"SELECT count(*) FROM links.reports WHERE token_hash LIKE '%{token}%'")[0][0] == "0"
    listed = expect(ws.call("GET", f"links/{link['uuid']}/reports/"), 200)
    assert listed["count"] == 1 and [set(x) for x in listed["results"]] == \
        [{"uuid", "expires_at", "include_text", "date_created"}], listed
    r = page(ws, j["url"])
    assert r.status == 200, r
    assert r.header("Content-Type") == "text/html; charset=utf-8"
    assert "script-src" not in r.header("Content-Security-Policy") and \
        "default-src 'none'" in r.header("Content-Security-Policy")
    html = r.body.decode()
    assert f"Pulse rep-made" in html and "What customers told us this quarter" in html
    assert "zelda.report" not in html and "Quokkaville" not in html and "@" not in html
    # The figures are in the page itself, each chart with its table.
    assert re.search(r"<dt>Responses</dt><dd>2</dd>", html), html[:2000]
    charts, tables = html.count("<figure class=\"chart\">"), html.count("<table>")
    assert charts >= 6 and tables == charts, (charts, tables)
    for prompt in ("How likely are you to recommend us?", "Which plan?", "Rate each"):
        assert prompt in html
    assert "Promoters (9–10)" in html and "<th scope=\"row\">Speed</th>" in html


@test
def expires_in_days_and_the_body_are_checked():
    ws, link = made("rep-bounds")
    path = f"links/{link['uuid']}/reports/"
    for body in ({"expires_in_days": 0}, {"expires_in_days": 366}, {"expires_in_days": -5},
                 {"expires_in_days": "7"}, {"expires_in_days": 10**12}, {"include_text": "yes"},
                 {"colour": "red"}):
        expect(ws.call("POST", path, json=body), 400, "VALIDATION_ERROR")
    j = expect(ws.call("POST", path, json={"expires_in_days": 1, "include_text": True}), 201)
    assert j["include_text"] is True
    expect(ws.call("POST", "links/00000000-0000-4000-8000-000000000000/reports/", json={}), 404)
    other = Workspace()
    expect(other.call("POST", path, json={}), 404)
    reader = ws.token(scopes=["links:read"])
    expect(ws.call("POST", path, json={}, key=reader["key"]), 403)
    expect(ws.call("GET", path, key=reader["key"]), 403)


@test
def revoked_expired_or_deleted_is_a_404_page_on_every_gateway():
    ws, link = made("rep-gone")
    first = expect(ws.call("POST", f"links/{link['uuid']}/reports/", json={}), 201)
    second = expect(ws.call("POST", f"links/{link['uuid']}/reports/", json={}), 201)
    gateways = harness.ENV.get("GATEWAY_ADDRS", "").split(",") or [None]
    for g in gateways:
        assert page(ws, first["url"], gateway=g or None).status == 200
    r = expect(ws.call("DELETE", f"links/{link['uuid']}/reports/{first['uuid']}/"), 200)
    assert set(r) == {"message"}, r
    for g in gateways:
        gone = page(ws, first["url"], gateway=g or None)
        assert gone.status == 404 and b"Report not found" in gone.body, gone
    expect(ws.call("DELETE", f"links/{link['uuid']}/reports/{first['uuid']}/"), 404)
    listed = expect(ws.call("GET", f"links/{link['uuid']}/reports/"), 200)
    assert [x["uuid"] for x in listed["results"]] == [second["uuid"]]
    # On another workspace's host, the token opens nothing.
    other = Workspace()
    assert page(other, second["url"].replace(ws.info["host"], other.info["host"])).status == 404
    # Expired.
    sql(f"UPDATE links.reports SET expires_at = now() - interval '1 second' WHERE uuid = '{second['uuid']}'")
    assert page(ws, second["url"]).status == 404
    assert expect(ws.call("GET", f"links/{link['uuid']}/reports/"), 200)["count"] == 0
    # The link's deletion takes its reports.
    third = expect(ws.call("POST", f"links/{link['uuid']}/reports/", json={}), 201)
    assert page(ws, third["url"]).status == 200
    expect(ws.call("DELETE", f"links/{link['uuid']}/"), 200)
    assert page(ws, third["url"]).status == 404
    # A malformed token is no route's.
    assert page(ws, f"https://{ws.info['host']}/r/short").status == 404


@test
def include_text_quotes_the_latest_answers_with_addresses_masked():
    ws, link = made("rep-text")
    ws.complete("rep-text", {"nps": 7, "comment": "Mail me at kim@example.org about <b>refunds</b>"})
    without = expect(ws.call("POST", f"links/{link['uuid']}/reports/", json={}), 201)
    quoted = expect(ws.call("POST", f"links/{link['uuid']}/reports/", json={"include_text": True}), 201)
    plain = page(ws, without["url"]).body.decode()
    # Without include_text no answer is quoted (its topics, single words and phrases, show).
    assert "Latest answers" not in plain and "Quokkaville kiosk rejected" not in plain
    assert "Mail me at" not in plain
    html = page(ws, quoted["url"]).body.decode()
    assert "Latest answers" in html and "Quokkaville kiosk rejected my ticket" in html, html[-3000:]
    assert "Mail me at [email] about &lt;b&gt;refunds&lt;/b&gt;" in html
    assert "kim@example.org" not in html and "zelda.report" not in html
