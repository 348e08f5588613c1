"""Authentication and scopes: 401 codes and headers, revocation, the key cache, 403."""
import hashlib

from harness import Workspace, expect, redis, request, sql, test, wait_until

ALL = ["links:read", "links:write", "responses:read", "responses:write", "webhooks:read",
       "webhooks:write", "tokens:read", "tokens:write"]


def cache_key(key):
    return "fb:key:{" + hashlib.sha256(key.encode()).hexdigest() + "}"


@test
def missing_or_non_bearer_credentials_401():
    for headers in ({}, {"Authorization": "Basic dXNlcjpwYXNz"}, {"Authorization": "Bearer"},
                    {"Authorization": ""}):
        r = request("GET", "tokens/", headers=headers)
        expect(r, 401, "AUTHENTICATION_REQUIRED")
        assert r.header("WWW-Authenticate") == "Bearer", r.headers


@test
def unknown_or_malformed_keys_401_invalid_token():
    for key in ("sk_live_" + "A" * 40, "sk_test_abc", "sk_live_bad-chars!", "x" * 500):
        r = request("GET", "tokens/", key=key)
        expect(r, 401, "INVALID_API_KEY")
        assert r.header("WWW-Authenticate") == 'Bearer error="invalid_token"'


@test
def key_records_are_cached_in_redis_by_hash():
    ws = Workspace()
    expect(ws.call("GET", "tokens/"), 200)
    cached = redis("GET", cache_key(ws.key))
    # The workspace's rate limit stands in clear for the rate script; the rest is the caller.
    assert cached.startswith("v2:100000:"), cached[:20]
    assert ws.key not in cached
    # Without its cache entry the key is verified again by the tokens service.
    redis("DEL", cache_key(ws.key))
    expect(ws.call("GET", "tokens/"), 200)


@test
def revocation_is_immediate_and_survives_cache_loss():
    ws = Workspace()
    tok = ws.token()
    expect(ws.call("GET", "links/", key=tok["key"]), 200)
    expect(ws.call("DELETE", f"tokens/{tok['uuid']}/"), 200)
    r = ws.call("GET", "links/", key=tok["key"])
    expect(r, 401, "INVALID_API_KEY")
    assert redis("GET", cache_key(tok["key"])) == "revoked"
    revoked_at = sql(f"SELECT revoked_at IS NOT NULL FROM tokens.api_keys WHERE uuid = '{tok['uuid']}'")
    assert revoked_at == [["t"]], revoked_at
    redis("DEL", cache_key(tok["key"]))
    expect(ws.call("GET", "links/", key=tok["key"]), 401, "INVALID_API_KEY")
    expect(ws.call("GET", "links/"), 200)


@test
def revoking_the_calling_key_itself():
    ws = Workspace()
    tok = ws.token()
    expect(ws.call("DELETE", f"tokens/{tok['uuid']}/", key=tok["key"]), 200)
    expect(ws.call("GET", "tokens/", key=tok["key"]), 401, "INVALID_API_KEY")


@test
def every_route_checks_its_scope():
    ws = Workspace()
    link = ws.link()
    victim = ws.token()
    cases = [("GET", "tokens/", "tokens:read", None),
             ("POST", "tokens/", "tokens:write", {"name": "x"}),
             ("DELETE", f"tokens/{victim['uuid']}/", "tokens:write", None),
             ("GET", "links/", "links:read", None),
             ("POST", "links/", "links:write", {"name": "x"}),
             ("GET", f"links/{link['uuid']}/", "links:read", None),
             ("PATCH", f"links/{link['uuid']}/", "links:write", {"name": "renamed"}),
             ("DELETE", f"links/{link['uuid']}/", "links:write", None)]
    for method, path, scope, body in cases:
        key = ws.token(scopes=[s for s in ALL if s != scope])["key"]
        r = ws.call(method, path, key=key, json=body)
        expect(r, 403, "INSUFFICIENT_SCOPE")
        assert scope in r.json["error"]["message"], r
    # Nothing happened: the victim key still works, the link is still there, no link added.
    expect(ws.call("GET", "tokens/", key=victim["key"]), 200)
    assert expect(ws.call("GET", f"links/{link['uuid']}/"), 200)["name"] == link["name"]
    assert expect(ws.call("GET", "links/"), 200)["count"] == 1


@test
def last_used_at_is_recorded():
    ws = Workspace()
    tok = ws.token()
    assert tok["last_used_at"] is None
    expect(ws.call("GET", "links/", key=tok["key"]), 200)

    def used():
        listed = expect(ws.call("GET", "tokens/"), 200)["results"]
        return [t for t in listed if t["uuid"] == tok["uuid"]][0]["last_used_at"] is not None

    wait_until(used, what="last_used_at")
