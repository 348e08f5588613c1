"""Idempotency-Key on POST (docs/api.md "Idempotency") across gateway replicas: one resource
for any number of concurrent retries, replays marked, reuse refused, nothing in clear."""
import concurrent.futures
import uuid

from harness import GATEWAYS, Workspace, expect, redis, request, sql, stack, test, wait_until


def _key():
    return f"idem-{uuid.uuid4()}"


@test
def fifty_concurrent_posts_with_one_key_across_two_replicas_create_one_link():
    assert len(GATEWAYS) >= 2, GATEWAYS
    ws = Workspace()
    key, body = _key(), {"name": "Exactly once", "slug": "exactly-once"}

    def post(i):
        return ws.call("POST", "links/", json=body, headers={"Idempotency-Key": key},
                       gateway=GATEWAYS[i % len(GATEWAYS)])

    with concurrent.futures.ThreadPoolExecutor(50) as pool:
        answers = list(pool.map(post, range(50)))
    created = [r for r in answers if r.status == 201]
    in_use = [r for r in answers if r.status == 409]
    assert len(created) + len(in_use) == 50, [r.status for r in answers]
    for r in in_use:
        expect(r, 409, "IDEMPOTENCY_KEY_IN_USE")
    first = [r for r in created if r.header("Idempotent-Replayed") is None]
    assert len(first) == 1, [(r.status, r.header("Idempotent-Replayed")) for r in answers]
    assert all(r.json == first[0].json for r in created)
    count = sql(f"SELECT count(*) FROM links.links WHERE workspace_uuid = '{ws.uuid}'")
    assert count == [["1"]], count
    # Once answered, every retry through any replica replays it.
    for gateway in GATEWAYS:
        again = post(GATEWAYS.index(gateway))
        expect(again, 201)
        assert again.header("Idempotent-Replayed") == "true" and again.json == first[0].json


@test
def keys_are_scoped_to_the_workspace_and_checked_for_length():
    a, b = Workspace(), Workspace()
    key = _key()
    body = {"name": "Same key", "slug": "same-key"}
    one = expect(a.call("POST", "links/", json=body, headers={"Idempotency-Key": key}), 201)
    two = b.call("POST", "links/", json=body, headers={"Idempotency-Key": key})
    expect(two, 201)
    assert two.header("Idempotent-Replayed") is None and two.json["uuid"] != one["uuid"]
    expect(a.call("POST", "links/", json={"name": "Long"}, headers={"Idempotency-Key": "k" * 256}),
           400, "VALIDATION_ERROR")
    expect(a.call("POST", "links/", json={"name": "Longest"},
                  headers={"Idempotency-Key": "k" * 255}), 201)
    # Another path under the same key is another request.
    expect(a.call("POST", "tokens/", json={"name": "t"}, headers={"Idempotency-Key": key}),
           422, "IDEMPOTENCY_KEY_REUSED")


@test
def stored_answers_keep_no_secret_in_clear():
    ws = Workspace()
    key = _key()
    created = expect(ws.call("POST", "tokens/", json={"name": "ci"},
                             headers={"Idempotency-Key": key}), 201)
    replay = ws.call("POST", "tokens/", json={"name": "ci"}, headers={"Idempotency-Key": key})
    expect(replay, 201)
    assert replay.json["key"] == created["key"] and replay.header("Idempotent-Replayed") == "true"
    names = redis("--scan", "--pattern", "fb:idem:*").split()
    assert names, "no idempotency record"
    for name in names:
        stored = redis("GET", name)
        assert created["key"] not in stored and key not in name and key not in stored
    # An error answer is kept too (the request ran); a 5xx is not.
    bad = {"name": ""}
    k2 = _key()
    first = expect(ws.call("POST", "links/", json=bad, headers={"Idempotency-Key": k2}), 400,
                   "NAME_REQUIRED")
    again = ws.call("POST", "links/", json=bad, headers={"Idempotency-Key": k2})
    # The first answer as it was, its request_id included; X-Request-Id names this request.
    assert again.status == 400 and again.json == first, again
    assert again.header("Idempotent-Replayed") == "true"
    assert again.header("X-Request-Id") != first["error"]["request_id"]


@test
def intake_posts_submit_once_on_a_double_click():
    ws = Workspace()
    ws.link(slug="once", questions=[{"prompt": "Why?", "field_key": "why"}])
    key = _key()
    h = {"Host": ws.info["host"], "Idempotency-Key": key}
    body = {"answers": {"why": "double click"}}

    def submit(i):
        return request("POST", "/i/once/submit/", json=body, headers=h,
                       gateway=GATEWAYS[i % len(GATEWAYS)])

    with concurrent.futures.ThreadPoolExecutor(10) as pool:
        answers = list(pool.map(submit, range(10)))
    assert {r.status for r in answers} <= {201, 409}, [r.status for r in answers]
    wait_until(lambda: submit(0).header("Idempotent-Replayed") == "true", what="the replay")
    count = sql(f"SELECT count(*) FROM responses.responses WHERE workspace_uuid = '{ws.uuid}'")
    assert count == [["1"]], count
    # The same key on another link is another request.
    ws.link(slug="twice", questions=[{"prompt": "Why?", "field_key": "why"}])
    expect(request("POST", "/i/twice/submit/", json=body, headers=h), 201)


@test
def a_failed_request_frees_its_key_and_redis_down_answers_503():
    ws = Workspace()
    key = _key()
    stack("stop-service", "links")
    try:
        expect(ws.call("POST", "links/", json={"name": "Later"}, headers={"Idempotency-Key": key}),
               503, "SERVICE_UNAVAILABLE")
    finally:
        stack("start-service", "links")
    wait_until(lambda: ws.call("POST", "links/", json={"name": "Later"},
                               headers={"Idempotency-Key": key}).status == 201,
               what="the retry runs once the links service is back")
    stack("stop-service", "redis")
    try:
        r = ws.call("POST", "links/", json={"name": "No Redis"}, headers={"Idempotency-Key": _key()})
        expect(r, 503, "SERVICE_UNAVAILABLE")
        assert r.header("Retry-After") == "1"
        # Without the header, writes go on as before.
        expect(ws.call("POST", "links/", json={"name": "Plain"}), 201)
    finally:
        stack("start-service", "redis")
    # Back for writes on every replica (they reconnect on their own).
    for gateway in GATEWAYS:
        wait_until(lambda: ws.call("POST", "links/", json={"name": "Again"},
                                   headers={"Idempotency-Key": _key()}, gateway=gateway).status == 201,
                   what="idempotent writes once Redis is back")
