"""/v1/tokens/: create, list, revoke, every error code, and what the database holds."""
import hashlib
import re

from harness import Workspace, expect, sql, test

KEY_RE = re.compile(r"^sk_live_[A-Za-z0-9]{32,}$")
TS_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")
ALL = ["links:read", "links:write", "responses:read", "responses:write", "webhooks:read",
       "webhooks:write", "tokens:read", "tokens:write"]


@test
def create_returns_the_key_once_and_stores_only_its_hash():
    ws = Workspace()
    j = expect(ws.call("POST", "tokens/", json={"name": "CI pipeline"}), 201)
    assert KEY_RE.match(j["key"]), j
    assert set(j) == {"uuid", "name", "prefix", "scopes", "date_created", "last_used_at", "key"}, j
    assert j["name"] == "CI pipeline" and j["prefix"] == j["key"][:12]
    assert j["scopes"] == ALL, j["scopes"]
    assert TS_RE.match(j["date_created"]) and j["last_used_at"] is None
    rows = sql(f"SELECT key_hash, prefix, name, array_to_string(scopes, ',') "
               f"FROM tokens.api_keys WHERE uuid = '{j['uuid']}'")
    assert rows == [[hashlib.sha256(j["key"].encode()).hexdigest(), j["key"][:12], "CI pipeline",
                     ",".join(ALL)]], rows
    dump = sql(f"SELECT row_to_json(k)::text FROM tokens.api_keys k WHERE uuid = '{j['uuid']}'")
    assert j["key"][12:] not in dump[0][0]


@test
def scopes_subset_and_no_escalation():
    ws = Workspace()
    narrow = ws.token(scopes=["tokens:write", "links:read"])
    assert narrow["scopes"] == ["links:read", "tokens:write"]
    r = ws.call("POST", "tokens/", key=narrow["key"],
                json={"name": "escalate", "scopes": ["links:read", "links:write"]})
    expect(r, 400, "INVALID_SCOPE")
    assert "scopes[1]" in r.json["error"]["details"], r
    inherited = expect(ws.call("POST", "tokens/", key=narrow["key"], json={"name": "same"}), 201)
    assert inherited["scopes"] == ["links:read", "tokens:write"]
    expect(ws.call("POST", "tokens/", json={"name": "x", "scopes": ["admin"]}), 400, "INVALID_SCOPE")
    expect(ws.call("POST", "tokens/", json={"name": "x", "scopes": []}), 400, "INVALID_SCOPE")


@test
def name_required_and_types_checked():
    ws = Workspace()
    before = sql(f"SELECT count(*) FROM tokens.api_keys WHERE workspace_uuid = '{ws.uuid}'")
    for body in ({}, {"name": None}, {"name": ""}, {"name": " \t"}, {"scopes": ["links:read"]}):
        expect(ws.call("POST", "tokens/", json=body), 400, "NAME_REQUIRED")
    for body in ({"name": 5}, {"name": ["x"]}, {"name": "x", "scopes": "links:read"},
                 {"name": "x", "scopes": [1]}, {"name": "x", "colour": "red"},
                 {"name": "x" * 201}):
        expect(ws.call("POST", "tokens/", json=body), 400, "VALIDATION_ERROR")
    after = sql(f"SELECT count(*) FROM tokens.api_keys WHERE workspace_uuid = '{ws.uuid}'")
    assert before == after, (before, after)


@test
def list_is_an_envelope_newest_first_with_pagination():
    ws = Workspace()
    made = [ws.token(name=f"t{i}")["uuid"] for i in range(3)]
    j = expect(ws.call("GET", "tokens/"), 200)
    assert j["count"] == 4 and j["next"] is None and j["previous"] is None, j
    assert [t["uuid"] for t in j["results"]][:3] == made[::-1]
    assert all("key" not in t for t in j["results"])
    page = expect(ws.call("GET", "tokens/?page_size=1&page=2&extra=keep"), 200)
    assert [t["uuid"] for t in page["results"]] == [made[1]]
    assert page["next"].startswith("http://") and "page=3" in page["next"], page
    assert "extra=keep" in page["next"] and "page_size=1" in page["next"], page
    assert "page=1" in page["previous"], page
    assert expect(ws.call("GET", "tokens/?page_size=1000"), 200)["count"] == 4


@test
def pagination_errors():
    ws = Workspace()
    for query in ("page=0", "page=-1", "page=abc", "page_size=0", "page_size=1.5", "page="):
        expect(ws.call("GET", f"tokens/?{query}"), 400, "INVALID_PAGINATION")
    expect(ws.call("GET", "tokens/?page=2"), 404, "INVALID_PAGE")
    expect(ws.call("GET", "tokens/?page=99999999999999"), 404, "INVALID_PAGE")


@test
def revoke_answers_message_then_404():
    ws = Workspace()
    other = Workspace()
    tok = ws.token()
    expect(other.call("DELETE", f"tokens/{tok['uuid']}/"), 404, None)
    j = expect(ws.call("DELETE", f"tokens/{tok['uuid']}/"), 200)
    assert isinstance(j["message"], str) and j["message"], j
    expect(ws.call("DELETE", f"tokens/{tok['uuid']}/"), 404, None)
    listed = [t["uuid"] for t in expect(ws.call("GET", "tokens/"), 200)["results"]]
    assert tok["uuid"] not in listed
    expect(ws.call("DELETE", "tokens/123e4567-e89b-42d3-a456-426614174000/"), 404, None)
