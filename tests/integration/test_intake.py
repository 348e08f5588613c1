"""Public intake (/i/{slug}/... at the gateway root, workspace from the Host header): form,
start, answers, submit and one-shot submit; every error code; the value rules of the 13
question types; conditions and calculated values; and what the database (responses, outbox,
link_counts) and Redis hold after every accepted or refused call."""
import concurrent.futures
import hashlib
import json
import os
import subprocess
import time
import urllib.parse
import uuid

import harness
from harness import ROOT, Workspace, dispatch_paused, expect, intake, redis, sql, sql_json, test

CARDS = [{"id": "c1", "label": "Cat", "media_url": "https://example.com/cat.png", "media_type": "image"},
         {"id": "c2", "label": "Dog", "media_url": "https://example.com/dog.mp4", "media_type": "video"}]
FILE = {"file_name": "a.png", "content_type": "image/png", "size_bytes": 1000,
        "url": "https://files.example.com/a.png"}

# Every type, some twice with another configuration.
TYPES = [
    {"prompt": "Tell us", "type": "voice", "field_key": "voice_q"},
    {"prompt": "Record only", "type": "voice", "field_key": "rec_q", "fallback_to_text": False},
    {"prompt": "Voice or text", "type": "voice_text_fallback", "field_key": "vtf_q",
     "configuration": {"max_duration": 60, "max_characters": 10}},
    {"prompt": "Comments", "type": "text", "field_key": "text_q"},
    {"prompt": "Colour", "type": "multiple_choice", "field_key": "mc_q",
     "configuration": {"options": ["red", "green", "blue"]}},
    {"prompt": "Colours", "type": "multiple_choice", "field_key": "mcm_q",
     "configuration": {"options": ["red", "green", "blue"], "allow_multiple": True}},
    {"prompt": "How many", "type": "number", "field_key": "num_q",
     "configuration": {"min": 0, "max": 10, "step": 0.5}},
    {"prompt": "Recommend", "type": "rating", "field_key": "nps_q", "configuration": {"scale_type": "nps"}},
    {"prompt": "Stars", "type": "rating", "field_key": "stars_q"},
    {"prompt": "Score", "type": "rating", "field_key": "score_q",
     "configuration": {"scale_type": "numbers", "max_value": 7}},
    {"prompt": "Card", "type": "image_choice", "field_key": "card_q", "configuration": {"cards": CARDS}},
    {"prompt": "Email", "type": "email", "field_key": "email_q"},
    {"prompt": "When", "type": "date", "field_key": "date_q"},
    {"prompt": "Yes or no", "type": "yes_no", "field_key": "yn_q"},
    {"prompt": "File", "type": "file_upload", "field_key": "file_q",
     "configuration": {"allowed_types": ["image/*", "application/pdf"], "max_size_mb": 2}},
    {"prompt": "Total", "type": "calculated", "field_key": "calc_q",
     "configuration": {"formula": "(num_q + stars_q) * 2"}},
    {"prompt": "About", "type": "help_block", "field_key": "help_q", "configuration": {"content": "Thanks"}},
]

# field_key -> (accepted values, refused values)
VALUES = {
    "voice_q": (["spoken words"], [5, ["a"], {"t": "x"}, True]),
    "rec_q": ([], ["typed instead of recorded"]),
    "vtf_q": (["0123456789", "é" * 10], ["01234567890", "é" * 11, 7]),
    "text_q": (["plain words", "x" * 10000], [123, ["a"], False, "x" * 10001]),
    "mc_q": (["green"], ["purple", ["red"], "Red", 1]),
    # An empty list chooses nothing: accepted, and no answer to a required question.
    "mcm_q": (["red", ["red", "blue"], []], [["red", "red"], ["red", "purple"], "purple", [1], {}]),
    "num_q": ([0, 2.5, 10], [-0.5, 10.5, 2.25, "5", True, [1]]),
    "nps_q": ([0, 10], [-1, 11, 2.5, "5"]),
    "stars_q": ([1, 5], [0, 6, True, "3"]),
    "score_q": ([7], [8, 0]),
    "card_q": (["c2"], ["c3", "Dog", 1, {"id": "c1"}]),
    "email_q": (["eve@example.com"], ["eve@", "eve@example", "eve..x@example.com", "eve x@example.com", 5]),
    "date_q": (["2024-02-29"], ["2023-02-29", "2024-13-01", "2024-1-01", "2024-02-29T10:00:00Z", 20240229]),
    "yn_q": ([True, False], ["yes", 1, 0, "true"]),
    "file_q": ([FILE, dict(FILE, file_name="b.pdf", content_type="application/pdf")],
               [dict(FILE, content_type="text/plain"), dict(FILE, size_bytes=2 * 1024 * 1024 + 1),
                dict(FILE, extra=1), dict(FILE, url="ftp://example.com/a"), "a.png",
                {k: v for k, v in FILE.items() if k != "url"}]),
    "calc_q": ([], [4, "4"]),
    "help_q": ([], ["read it", True]),
}

ANSWER_FIELDS = {"uuid", "question_uuid", "field_key", "response_type", "question_text", "value",
                 "audio_url", "transcription", "duration", "ai_insights"}


def cond(field, op, value):
    return {"show_if": "field_value", "field": field, "operator": op, "value": value}


def by_key(record):
    return {a["field_key"]: a for a in record["answers"]}


def count_key(link_uuid):
    return "fb:link:{" + link_uuid + "}:responses"


def redis_count(link_uuid):
    """The link's completed count in Redis ("" when none) (common/redis/response_counts.h)."""
    return redis("GET", count_key(link_uuid))


def redis_pending(link_uuid):
    """Submissions of the link begun and not yet settled in Redis."""
    return int(redis("ZCARD", "fb:link:{" + link_uuid + "}:pending") or 0)


def link_counts(link_uuid):
    row = sql("SELECT coalesce(sum(started), 0), coalesce(sum(completed), 0) FROM responses.link_counts "
              f"WHERE link_uuid = '{link_uuid}'")[0]
    return int(row[0]), int(row[1])


def stored(response_uuid):
    """The response's row, answers parsed."""
    rows = sql_json("SELECT uuid, workspace_uuid, link_uuid, session_id, token_hash, status, "
                    "respondent_email, answers, search_text, started_at, submitted_at, sort_at "
                    f"FROM responses.responses WHERE uuid = '{response_uuid}'")
    assert len(rows) == 1, rows
    rows[0]["answers"] = json.loads(rows[0]["answers"])
    return rows[0]


STARTED_PREFIX, SUBMITTED_PREFIX = '{"type":"response.started",', '{"type":"response.submitted",'


def outbox(link_uuid, response_uuid=None):
    """The link's events waiting in the outbox, in order: a row of a response completed in one
    call is its response.submitted and stands also for its response.started, which comes first,
    with the row's payload but for the type (common/webhooks/webhook_rules.h). `id` orders them."""
    where = f"link_uuid = '{link_uuid}'"
    if response_uuid:
        where += f" AND response_uuid = '{response_uuid}'"
    rows = sql_json("SELECT id, event_id, type, workspace_uuid, link_uuid, response_uuid, payload, "
                    f"started_event_id FROM responses.outbox_events WHERE {where} ORDER BY id")
    events = []
    for r in rows:
        first = r.pop("started_event_id")
        if first:
            assert r["payload"].startswith(SUBMITTED_PREFIX), r["payload"]
            events.append(dict(r, id=(r["id"], 0), event_id=first, type="response.started",
                               payload=json.loads(STARTED_PREFIX + r["payload"][len(SUBMITTED_PREFIX):])))
        events.append(dict(r, id=(r["id"], 1), payload=json.loads(r["payload"])))
    return events


def state(link_uuid):
    """Everything an intake call may change for a link."""
    return {"rows": sql_json("SELECT uuid, status, answers, search_text, respondent_email, submitted_at, "
                             f"sort_at FROM responses.responses WHERE link_uuid = '{link_uuid}' ORDER BY uuid"),
            "outbox": [(r["id"], r["type"], r["response_uuid"]) for r in outbox(link_uuid)],
            "counts": link_counts(link_uuid),
            "redis": redis_count(link_uuid)}


def details(r, code, status=400):
    j = expect(r, status, code)
    d = j["error"].get("details")
    assert isinstance(d, dict), f"{code} without details: {r!r}"
    return d


# --- form -------------------------------------------------------------------------------------

@test
def form_is_public_hides_evaluator_config_and_follows_changes_at_once():
    ws, other = Workspace(), Workspace()
    link = ws.link(name="Shared form", slug="shared", settings={"description": "Hello"}, questions=[
        {"prompt": "Why?", "type": "text", "field_key": "why", "enable_dynamic_probing": True,
         "evaluator_config": {"clarity_threshold": 0.5, "max_follow_ups": 1, "custom_fields": ["team"]}},
        {"prompt": "Score", "type": "number", "field_key": "score", "configuration": {"min": 0, "max": 5}}])
    theirs = other.link(name="Their form", slug="shared")
    j = expect(ws.intake("GET", "/i/shared/form/"), 200)
    assert set(j) == {"name", "slug", "status", "settings", "questions"}, sorted(j)
    assert (j["name"], j["slug"], j["status"], j["settings"]) == (
        "Shared form", "shared", "active", link["settings"])
    assert [q["field_key"] for q in j["questions"]] == ["why", "score"]
    for fq, lq in zip(j["questions"], link["questions"]):
        assert "evaluator_config" not in fq, fq
        for k in ("uuid", "prompt", "field_key", "response_type", "configuration", "order", "required",
                  "condition", "enable_dynamic_probing", "fallback_to_text"):
            assert fq[k] == lq[k], (k, fq, lq)
    assert "team" not in json.dumps(j) and "clarity_threshold" not in json.dumps(j)
    # The same slug in another workspace is another form; unknown hosts and slugs are 404.
    assert expect(other.intake("GET", "/i/shared/form/"), 200)["name"] == theirs["name"]
    expect(ws.intake("GET", "/i/nothing-here/form/"), 404, None)
    expect(intake("nobody-" + uuid.uuid4().hex[:8] + ".localhost", "GET", "/i/shared/form/"), 404, None)
    # Changes show at once (no stale cached form).
    expect(ws.call("PATCH", f"links/{link['uuid']}/", json={
        "name": "Renamed", "questions": [{"prompt": "Only one", "type": "yes_no", "field_key": "one"}]}), 200)
    j = expect(ws.intake("GET", "/i/shared/form/"), 200)
    assert j["name"] == "Renamed" and [q["field_key"] for q in j["questions"]] == ["one"], j
    expect(ws.call("PATCH", f"links/{link['uuid']}/", json={"status": "paused"}), 200)
    assert expect(ws.intake("GET", "/i/shared/form/"), 200)["status"] == "paused"
    expect(ws.intake("POST", "/i/shared/responses/", json={}), 409, "LINK_PAUSED")
    expect(ws.call("DELETE", f"links/{link['uuid']}/"), 200)
    expect(ws.intake("GET", "/i/shared/form/"), 404, None)
    expect(ws.intake("POST", "/i/shared/responses/", json={}), 404, None)
    expect(ws.oneshot("shared", {}), 404, None)
    assert sql(f"SELECT count(*) FROM responses.responses WHERE link_uuid = '{link['uuid']}'") == [["0"]]
    assert expect(other.intake("GET", "/i/shared/form/"), 200)["name"] == theirs["name"]


@test
@dispatch_paused
def intake_keeps_the_wire_rules():
    ws = Workspace()
    link = ws.link(slug="wire", questions=[{"prompt": "C", "type": "text", "field_key": "c"}])
    host = ws.info["host"]
    for h in (host + ":8443", host.upper(), host + "."):
        assert expect(intake(h, "GET", "/i/wire/form/"), 200)["slug"] == "wire", h
    expect(intake("x." + host, "GET", "/i/wire/form/"), 404, None)
    r = ws.intake("POST", "/i/wire/submit?x=1", json={"answers": {}})
    assert r.status == 301 and r.header("Location") == "/i/wire/submit/?x=1", (r, r.header("Location"))
    for method, path in (("POST", "/i/wire/form/"), ("GET", "/i/wire/responses/"), ("DELETE", "/i/wire/submit/")):
        r = ws.intake(method, path, json={} if method == "POST" else None)
        expect(r, 405, "METHOD_NOT_ALLOWED")
        assert r.header("Allow"), r
    before = state(link["uuid"])
    expect(ws.intake("POST", "/i/wire/submit/", body=b'{"answers": ', headers={"Content-Type": "application/json"}),
           400, "INVALID_JSON")
    expect(ws.intake("POST", "/i/wire/submit/", body=b'{"answers": {}}', headers={"Content-Type": "text/plain"}),
           415, "UNSUPPORTED_MEDIA_TYPE")
    expect(ws.intake("POST", "/i/wire/submit/", json={"answers": {"c": "x" * (1024 * 1024)}}), 413, "PAYLOAD_TOO_LARGE")
    # The one call carries every answer: without `answers` it is refused, storing nothing.
    assert details(ws.intake("POST", "/i/wire/submit/", json={}), "VALIDATION_ERROR") == {"answers": "is required"}
    assert details(ws.intake("POST", "/i/wire/submit/", json={"answers": None}), "VALIDATION_ERROR") == \
        {"answers": "is required"}
    assert state(link["uuid"]) == before
    # An API key is neither needed nor in the way.
    assert expect(ws.intake("POST", "/i/wire/submit/", json={"answers": {"c": "k"}},
                            headers={"Authorization": "Bearer sk_live_not_a_key"}), 201)["status"] == "completed"


def toast_rows(table):
    """Rows of `table`'s TOAST relation: where values too long for their row go."""
    toast = sql(f"SELECT reltoastrelid::regclass FROM pg_class WHERE oid = '{table}'::regclass")[0][0]
    return int(sql(f"SELECT count(*) FROM {toast}")[0][0])


@test
@dispatch_paused
def answers_and_events_stay_in_their_rows():
    """Up to a page, a response's answers and its event's payload are kept in their row as
    written: not compressed (a 5-answer response), nor moved to TOAST (32 answers, 9.5 kB)."""
    ws = Workspace()
    with open(os.path.join(ROOT, "tests", "bench", "link_32_types.json")) as f:
        ws.link(**dict(json.load(f), slug="all-types"))
    with open(os.path.join(ROOT, "tests", "bench", "answers_32_types.json")) as f:
        all_types = json.load(f)
    ws.link(slug="short", questions=[{"prompt": f"Q{i}", "type": "text", "field_key": f"q{i}"} for i in range(5)])
    toasted = {t: toast_rows(t) for t in ("responses.responses", "responses.outbox_events")}
    long_one = expect(ws.intake("POST", "/i/all-types/submit/", json=all_types), 201)
    short = ws.complete("short", {f"q{i}": "An answer of a few words, " * 16 for i in range(5)})
    assert {t: toast_rows(t) for t in toasted} == toasted
    for rec in (long_one, short):
        stored = sql(f"SELECT octet_length(answers), pg_column_compression(answers) FROM responses.responses "
                     f"WHERE uuid = '{rec['uuid']}'")[0]
        assert int(stored[0]) > 2032, stored  # beyond PostgreSQL's default limit of a row's values
        assert stored[1] == ("lz4" if int(stored[0]) > 8160 else ""), stored
        event = sql(f"SELECT octet_length(payload), pg_column_compression(payload) FROM responses.outbox_events "
                    f"WHERE response_uuid = '{rec['uuid']}'")[0]
        assert event[1] == ("lz4" if int(event[0]) > 8160 else ""), event


def facts_layout_id(question_uuids):
    """FactsLayout's id (services/responses/summary_facts.cc): FNV-1a 64 of the joined uuids."""
    h = 14695981039346656037
    for byte in ",".join(question_uuids).encode():
        h = ((h ^ byte) * 1099511628211) % (1 << 64)
    return f"{h:016x}"


@test
def a_new_facts_layout_held_by_a_submission_does_not_deadlock_a_batch():
    """A response submitted step by step writes its link's new facts layout and then counts
    the link in one transaction; a batch of one-call submissions of that link once counted it
    first and then waited for the layout, in one statement: a deadlock, one of them refused."""
    ws = Workspace()
    link = ws.link(slug="layout", questions=[{"prompt": "C", "type": "text", "field_key": "c"}])
    uuids = [q["uuid"] for q in link["questions"]]
    sql(f"INSERT INTO responses.link_counts (link_uuid, shard, workspace_uuid, started, completed) "
        f"SELECT '{link['uuid']}', s, '{ws.uuid}', 0, 0 FROM generate_series(0, 15) s")
    # The step-by-step submission's transaction, stopped between its two writes.
    held = subprocess.Popen(["psql", harness.ENV["DATABASE_URL"], "-X", "-q", "-v", "ON_ERROR_STOP=1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    held.stdin.write(f"BEGIN; INSERT INTO responses.facts_layouts VALUES ('{link['uuid']}', "
                     f"'{facts_layout_id(uuids)}', '{','.join(uuids)}');\n")
    held.stdin.flush()
    time.sleep(0.5)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        submitted = pool.submit(ws.oneshot, "layout", {"c": "held"})
        time.sleep(1)  # the batch's statement reaches the layout's row
        held.stdin.write(f"UPDATE responses.link_counts SET started = started WHERE link_uuid = '{link['uuid']}';"
                         " COMMIT;\n")
        out, _ = held.communicate(timeout=30)
        assert held.returncode == 0 and "deadlock" not in out, out
        expect(submitted.result(timeout=30), 201)
    facts = sql(f"SELECT facts FROM responses.response_facts WHERE link_uuid = '{link['uuid']}'")
    assert facts and facts[0][0].startswith("@" + facts_layout_id(uuids)), facts


# --- start --------------------------------------------------------------------------------------

@test
@dispatch_paused
def start_keeps_only_a_hash_of_the_token_and_writes_one_started_event():
    ws = Workspace()
    link = ws.link(name="Start here", slug="start", questions=[{"prompt": "C", "type": "text", "field_key": "c"}])
    r = ws.intake("POST", "/i/start/responses/", json={"respondent_email": "ann@example.com"})
    st = expect(r, 201)
    assert set(st) == {"uuid", "session_id", "token"}, st
    token = st["token"]
    assert isinstance(token, str) and len(token) >= 16
    row = stored(st["uuid"])
    assert (row["status"], row["respondent_email"], row["answers"], row["submitted_at"]) == (
        "in_progress", "ann@example.com", [], None), row
    assert (row["workspace_uuid"], row["link_uuid"], row["session_id"]) == (ws.uuid, link["uuid"], st["session_id"])
    assert row["token_hash"] == hashlib.sha256(token.encode()).hexdigest(), row["token_hash"]
    assert row["sort_at"] == row["started_at"]
    for table in ("responses", "outbox_events", "link_counts"):
        n = sql(f"SELECT count(*) FROM responses.{table} t WHERE strpos(t::text, '{token}') > 0")
        assert n == [["0"]], f"the response token is stored in responses.{table}"
    events = outbox(link["uuid"])
    assert [e["type"] for e in events] == ["response.started"], events
    e = events[0]
    assert (e["workspace_uuid"], e["link_uuid"], e["response_uuid"]) == (ws.uuid, link["uuid"], st["uuid"])
    p = e["payload"]
    assert set(p) == {"type", "timestamp", "data"} and p["type"] == "response.started", p
    assert p["data"]["workspace_uuid"] == ws.uuid
    assert p["data"]["link"] == {"uuid": link["uuid"], "name": "Start here", "slug": "start"}
    resp = p["data"]["response"]
    assert (resp["uuid"], resp["session_id"], resp["status"], resp["respondent_email"], resp["submitted_at"],
            resp["answers"]) == (st["uuid"], st["session_id"], "in_progress", "ann@example.com", None, []), resp
    assert token not in json.dumps(p)
    assert link_counts(link["uuid"]) == (1, 0)
    assert redis_count(link["uuid"]) in ("", "0")
    # No email.
    for _ in range(2):
        other = expect(ws.intake("POST", "/i/start/responses/", json={}), 201)
        assert other["uuid"] != st["uuid"] and other["token"] != token
        assert stored(other["uuid"])["respondent_email"] is None
    assert link_counts(link["uuid"]) == (3, 0)
    assert len(outbox(link["uuid"])) == 3


@test
@dispatch_paused
def start_refuses_bad_emails_and_unknown_keys_storing_nothing():
    ws = Workspace()
    link = ws.link(slug="start", questions=[{"prompt": "C", "type": "text", "field_key": "c"}])
    before = state(link["uuid"])
    for email in ("not-an-email", "a@b", "", "a b@example.com", "a\u0000@example.com", 5, ["a@example.com"]):
        d = details(ws.intake("POST", "/i/start/responses/", json={"respondent_email": email}), "VALIDATION_ERROR")
        assert "respondent_email" in d, (email, d)
        d = details(ws.oneshot("start", {"c": "x"}, email=email), "VALIDATION_ERROR")
        assert "respondent_email" in d, (email, d)
    d = details(ws.intake("POST", "/i/start/responses/", json={"email": "a@example.com"}), "VALIDATION_ERROR")
    assert "email" in d, d
    d = details(ws.intake("POST", "/i/start/submit/", json={"answers": {}, "colour": "red"}), "VALIDATION_ERROR")
    assert "colour" in d, d
    for body in ({"answers": []}, {"answers": "c"}):
        assert "answers" in details(ws.intake("POST", "/i/start/submit/", json=body), "VALIDATION_ERROR")
    assert state(link["uuid"]) == before


# --- the response token -------------------------------------------------------------------------

@test
@dispatch_paused
def a_missing_or_wrong_token_is_the_same_404_as_no_response():
    ws, other = Workspace(), Workspace()
    link = ws.link(slug="tok", questions=[{"prompt": "C", "type": "text", "field_key": "c"}])
    ws.link(slug="tok-two", questions=[{"prompt": "C", "type": "text", "field_key": "c"}])
    other.link(slug="tok", questions=[{"prompt": "C", "type": "text", "field_key": "c"}])
    st = ws.start("tok")
    st_two = ws.start("tok-two")
    before = state(link["uuid"])
    flipped = st["token"][:-1] + ("A" if st["token"][-1] != "A" else "B")
    variants = {
        "no token": (ws, "tok", st["uuid"], None),
        "empty token": (ws, "tok", st["uuid"], ""),
        "wrong token": (ws, "tok", st["uuid"], flipped),
        "token of another response": (ws, "tok", st["uuid"], st_two["token"]),
        "no such response": (ws, "tok", str(uuid.uuid4()), st["token"]),
        "not a uuid": (ws, "tok", "not-a-uuid", st["token"]),
        "response of another link": (ws, "tok-two", st["uuid"], st["token"]),
        "another workspace's host": (other, "tok", st["uuid"], st["token"]),
    }
    seen = set()
    for name, (w, slug, response_uuid, token) in variants.items():
        headers = {} if token is None else {"X-Response-Token": token}
        for method, path, body in (
                ("PUT", f"/i/{slug}/responses/{response_uuid}/answers/c/", {"value": "sneaky"}),
                ("POST", f"/i/{slug}/responses/{response_uuid}/submit/", {"answers": {"c": "sneaky"}}),
                ("POST", f"/i/{slug}/responses/{response_uuid}/submit/", {})):
            r = w.intake(method, path, json=body, headers=headers)
            j = expect(r, 404, None)
            assert set(j["error"]) <= {"code", "message", "request_id", "details"}, (name, r)
            if name != "not a uuid":  # refused by the router already: says nothing of responses
                seen.add((j["error"]["message"], json.dumps(j["error"].get("details"))))
    assert len(seen) == 1, f"404s differ between a wrong token and no response: {seen}"
    assert state(link["uuid"]) == before
    assert stored(st["uuid"])["answers"] == []
    expect(ws.answer("tok", st, "c", "mine"), 200)
    assert expect(ws.submit("tok", st), 200)["status"] == "completed"


@test
@dispatch_paused
def a_wrong_token_is_404_even_when_the_answer_is_invalid():
    """Without the right token nothing about the call is judged: a wrong token answers what a
    missing one does (404), not INVALID_ANSWER."""
    ws = Workspace()
    link = ws.link(slug="tok", questions=[{"prompt": "N", "type": "number", "field_key": "n"}])
    st = ws.start("tok")
    before = state(link["uuid"])
    for token in (None, "wrong-token", st["token"][::-1]):
        headers = {} if token is None else {"X-Response-Token": token}
        for method, path, body in (
                ("PUT", f"/i/tok/responses/{st['uuid']}/answers/n/", {"value": "not a number"}),
                ("POST", f"/i/tok/responses/{st['uuid']}/submit/", {"answers": {"n": "not a number"}}),
                ("POST", f"/i/tok/responses/{st['uuid']}/submit/", {"answers": {"no_such_q": 1}}),
                ("POST", f"/i/tok/responses/{uuid.uuid4()}/submit/", {"answers": {"n": "x"}})):
            r = ws.intake(method, path, json=body, headers=headers)
            assert r.status == 404, f"{method} {path} {body} with token {token!r}: expected 404, got {r!r}"
            expect(r, 404, None)
    # Without any token, not even the body's shape is judged (a present token is checked by
    # the responses service, after the gateway read the body; a shape tells nothing anyway).
    for method, path, body in (
            ("PUT", f"/i/tok/responses/{st['uuid']}/answers/n/", {}),
            ("PUT", f"/i/tok/responses/{st['uuid']}/answers/n/", {"value": 1, "extra": 2}),
            ("POST", f"/i/tok/responses/{st['uuid']}/submit/", {"answers": "not an object"}),
            ("POST", f"/i/tok/responses/{st['uuid']}/submit/", {"extra": 1})):
        expect(ws.intake(method, path, json=body), 404, None)
    # Nor whether it is JSON at all.
    for method, path in (("PUT", f"/i/tok/responses/{st['uuid']}/answers/n/"),
                         ("POST", f"/i/tok/responses/{st['uuid']}/submit/")):
        for body, content_type in ((b'{"value": ', "application/json"), (b'{}', "text/plain")):
            expect(ws.intake(method, path, body=body, headers={"Content-Type": content_type}), 404, None)
    assert state(link["uuid"]) == before


# --- answers --------------------------------------------------------------------------------------

@test
@dispatch_paused
def answers_are_saved_replaced_and_cleared_and_refused_with_details():
    ws = Workspace()
    link = ws.link(slug="ans", questions=TYPES)
    st = ws.start("ans", "put@example.com")
    a = expect(ws.answer("ans", st, "text_q", "first"), 200)
    assert ANSWER_FIELDS <= set(a), a
    q = next(x for x in link["questions"] if x["field_key"] == "text_q")
    assert (a["field_key"], a["value"], a["question_uuid"], a["question_text"], a["response_type"],
            ) == ("text_q", "first", q["uuid"], "Comments", "text"), a
    # A text answer is evaluated as it is saved, by the local evaluator
    # (docs/api.md "AI insights and summaries").
    assert a["ai_insights"] == {"sentiment": "neutral", "sentiment_score": 0, "actionable": False,
                                "key_topics": ["first"], "summary": "first"}, a
    assert stored(st["uuid"])["answers"] == [a]
    b = expect(ws.answer("ans", st, "text_q", "second"), 200)
    assert b["uuid"] == a["uuid"] and b["value"] == "second"
    assert stored(st["uuid"])["answers"] == [b]
    n = expect(ws.answer("ans", st, "num_q", 2.5), 200)
    assert [x["value"] for x in stored(st["uuid"])["answers"]] == ["second", 2.5]
    cleared = expect(ws.answer("ans", st, "text_q", None), 200)
    assert cleared["value"] is None and cleared["field_key"] == "text_q"
    assert stored(st["uuid"])["answers"] == [n]
    before = state(link["uuid"])
    base = f"/i/ans/responses/{st['uuid']}/answers"
    assert "value" in details(ws.intake("PUT", f"{base}/num_q/", token=st["token"], json={}), "VALIDATION_ERROR")
    assert "extra" in details(ws.intake("PUT", f"{base}/num_q/", token=st["token"],
                                        json={"value": 1, "extra": 2}), "VALIDATION_ERROR")
    expect(ws.answer("ans", st, "no_such_q", "x"), 404, None)
    assert set(details(ws.answer("ans", st, "num_q", 11), "INVALID_ANSWER")) == {"num_q"}
    assert set(details(ws.answer("ans", st, "calc_q", 4), "INVALID_ANSWER")) == {"calc_q"}
    assert set(details(ws.answer("ans", st, "help_q", "x"), "INVALID_ANSWER")) == {"help_q"}
    assert state(link["uuid"]) == before, "a refused answer changed the response"
    assert [e["type"] for e in outbox(link["uuid"])] == ["response.started"], "answers wrote events"
    rec = expect(ws.submit("ans", st), 200)
    assert by_key(rec)["num_q"]["uuid"] == n["uuid"], "the saved answer lost its uuid on submit"
    done = state(link["uuid"])
    expect(ws.answer("ans", st, "num_q", 3), 409, "RESPONSE_ALREADY_SUBMITTED")
    expect(ws.answer("ans", st, "num_q", None), 409, "RESPONSE_ALREADY_SUBMITTED")
    expect(ws.submit("ans", st), 409, "RESPONSE_ALREADY_SUBMITTED")
    expect(ws.submit("ans", st, {"text_q": "late"}), 409, "RESPONSE_ALREADY_SUBMITTED")
    assert state(link["uuid"]) == done


@test
@dispatch_paused
def a_paused_link_refuses_answers_and_submits_of_started_responses():
    ws = Workspace()
    link = ws.link(slug="pause", questions=[{"prompt": "C", "type": "text", "field_key": "c"}])
    st = ws.start("pause")
    expect(ws.answer("pause", st, "c", "before"), 200)
    expect(ws.call("PATCH", f"links/{link['uuid']}/", json={"status": "paused"}), 200)
    before = state(link["uuid"])
    expect(ws.answer("pause", st, "c", "during"), 409, "LINK_PAUSED")
    expect(ws.submit("pause", st), 409, "LINK_PAUSED")
    expect(ws.intake("POST", "/i/pause/responses/", json={}), 409, "LINK_PAUSED")
    expect(ws.oneshot("pause", {"c": "x"}), 409, "LINK_PAUSED")
    assert state(link["uuid"]) == before
    expect(ws.call("PATCH", f"links/{link['uuid']}/", json={"status": "active"}), 200)
    rec = expect(ws.submit("pause", st), 200)
    assert by_key(rec)["c"]["value"] == "before"
    assert link_counts(link["uuid"]) == (1, 1)


# --- value rules --------------------------------------------------------------------------------

@test
@dispatch_paused
def value_rules_of_all_thirteen_types():
    ws = Workspace()
    link = ws.link(slug="types", questions=TYPES)
    assert {q["response_type"] for q in link["questions"]} == {
        "voice", "voice_text_fallback", "text", "multiple_choice", "number", "rating", "image_choice",
        "email", "date", "yes_no", "file_upload", "calculated", "help_block"}
    goods = 0
    for key, (good, bad) in VALUES.items():
        for value in good:
            rec = ws.complete("types", {key: value})
            goods += 1
            got = by_key(rec)
            assert got[key]["value"] == value, (key, value, got.get(key))
            row_answers = {a["field_key"]: a for a in stored(rec["uuid"])["answers"]}
            assert row_answers[key]["value"] == value, (key, row_answers.get(key))
        for value in bad:
            d = details(ws.oneshot("types", {key: value}), "INVALID_ANSWER")
            assert set(d) == {key}, f"{key}={value!r}: details {d}"
    # Every bad answer at once: each one is named.
    all_bad = {key: bad[0] for key, (good, bad) in VALUES.items()}
    d = details(ws.oneshot("types", dict(all_bad, text_q="fine", no_such_q=1)), "INVALID_ANSWER")
    assert set(d) == (set(all_bad) - {"text_q"}) | {"no_such_q"}, sorted(d)
    # The same rules for a saved answer and for answers given to submit.
    st = ws.start("types")
    for key, value in all_bad.items():
        assert set(details(ws.answer("types", st, key, value), "INVALID_ANSWER")) == {key}, key
    d = details(ws.submit("types", st, all_bad), "INVALID_ANSWER")
    assert set(d) == set(all_bad), sorted(d)
    assert stored(st["uuid"])["answers"] == []
    # A null answer is no answer; rating_details and selected_card describe the choice.
    rec = ws.complete("types", {"text_q": None, "nps_q": 0, "stars_q": 5, "score_q": 7, "card_q": "c1",
                                "num_q": 2.5})
    goods += 1
    got = by_key(rec)
    assert "text_q" not in got
    assert got["nps_q"]["rating_details"] == {"value": 0, "max_value": 10, "scale_type": "nps"}
    assert got["stars_q"]["rating_details"] == {"value": 5, "max_value": 5, "scale_type": "stars"}
    assert got["score_q"]["rating_details"] == {"value": 7, "max_value": 7, "scale_type": "numbers"}
    assert got["card_q"]["selected_card"] == {"card_id": "c1", "label": "Cat",
                                              "media_url": "https://example.com/cat.png", "media_type": "image"}
    assert got["calc_q"]["value"] == 15
    assert "help_q" not in got
    assert sql(f"SELECT count(*), count(*) FILTER (WHERE status = 'completed') FROM responses.responses "
               f"WHERE link_uuid = '{link['uuid']}'") == [[str(goods + 1), str(goods)]]
    assert link_counts(link["uuid"]) == (goods + 1, goods)
    assert len(outbox(link["uuid"])) == 2 * goods + 1


@test
def calculated_values_are_null_when_they_cannot_be_computed():
    ws = Workspace()
    ws.link(slug="calc", questions=[
        {"prompt": "A", "type": "number", "field_key": "a"},
        {"prompt": "B", "type": "number", "field_key": "b", "condition": cond("a", "less_than", 100)},
        {"prompt": "Ratio", "type": "calculated", "field_key": "ratio", "configuration": {"formula": "a / b"}},
        {"prompt": "Total", "type": "calculated", "field_key": "total", "configuration": {"formula": "a + b * 2"}},
        {"prompt": "Twice", "type": "calculated", "field_key": "twice", "configuration": {"formula": "total * 2"}},
        {"prompt": "Neg", "type": "calculated", "field_key": "neg", "configuration": {"formula": "-(a - b) / 4"}}])
    cases = [({"a": 3, "b": 4}, {"ratio": 0.75, "total": 11, "twice": 22, "neg": 0.25}),
             ({"a": -6, "b": 4}, {"ratio": -1.5, "total": 2, "twice": 4, "neg": 2.5}),
             ({"a": 3, "b": 0}, {"ratio": None, "total": 3, "twice": 6, "neg": -0.75}),
             ({"a": 0, "b": 0}, {"ratio": None, "total": 0, "twice": 0, "neg": 0}),
             ({"a": 3}, {"ratio": None, "total": None, "twice": None, "neg": None}),
             ({"a": 3, "b": None}, {"ratio": None, "total": None, "twice": None, "neg": None}),
             ({}, {"ratio": None, "total": None, "twice": None, "neg": None}),
             # b hidden (a >= 100): its answer is dropped and is no operand.
             ({"a": 200, "b": 4}, {"ratio": None, "total": None, "twice": None, "neg": None})]
    for given, want in cases:
        rec = ws.complete("calc", given)
        got = by_key(rec)
        for key, value in want.items():
            assert key in got, f"calculated {key} missing for {given}: {rec['answers']}"
            assert got[key]["value"] == value, f"{key} for {given}: {got[key]['value']!r}, expected {value!r}"
        if given.get("a") == 200:
            assert "b" not in got
        assert stored(rec["uuid"])["answers"] == rec["answers"]
    # Calculated values are never accepted, but computed from saved and submitted answers.
    st = ws.start("calc")
    expect(ws.answer("calc", st, "a", 3), 200)
    assert "total" in details(ws.submit("calc", st, {"b": 4, "total": 1}), "INVALID_ANSWER")
    rec = expect(ws.submit("calc", st, {"b": 4}), 200)
    assert {k: by_key(rec)[k]["value"] for k in ("ratio", "total", "twice", "neg")} == {
        "ratio": 0.75, "total": 11, "twice": 22, "neg": 0.25}
    assert stored(st["uuid"])["answers"] == rec["answers"]


@test
@dispatch_paused
def conditions_decide_visibility_and_hidden_questions_are_never_required():
    ws = Workspace()
    link = ws.link(slug="cond", questions=[
        {"prompt": "Score", "type": "number", "field_key": "score", "configuration": {"min": 0, "max": 10}},
        {"prompt": "Why low?", "type": "text", "field_key": "why", "required": True,
         "condition": cond("score", "less_than", 5)},
        {"prompt": "Detail", "type": "text", "field_key": "detail", "condition": cond("why", "contains", "slow")},
        {"prompt": "Plan", "type": "multiple_choice", "field_key": "plan",
         "configuration": {"options": ["basic", "pro", "team"], "allow_multiple": True}},
        {"prompt": "Pro note", "type": "text", "field_key": "pro_note", "required": True,
         "condition": cond("plan", "equals", "pro")},
        {"prompt": "Comment", "type": "text", "field_key": "comment"},
        {"prompt": "Steps", "type": "text", "field_key": "steps", "required": True,
         "condition": cond("comment", "contains", "bug")},
        {"prompt": "Exactly", "type": "number", "field_key": "exact"},
        {"prompt": "Ten!", "type": "text", "field_key": "ten", "required": True,
         "condition": cond("exact", "equals", 10)}])
    accepted = [
        ({"score": 9, "plan": "basic", "comment": "all fine"}, {"score", "plan", "comment"}),
        ({"score": 9, "why": "x", "detail": "y", "plan": ["basic"], "pro_note": "n", "comment": "fine",
          "steps": "s", "exact": 9, "ten": "t"}, {"score", "plan", "comment", "exact"}),
        ({"score": 5, "plan": "pro", "pro_note": "ok", "comment": "no issues"},
         {"score", "plan", "pro_note", "comment"}),
        ({"score": 4.5, "why": "too slow", "detail": "queue", "comment": "a bug", "steps": "click"},
         {"score", "why", "detail", "comment", "steps"}),
        ({"score": 3, "why": "rude", "detail": "dropped"}, {"score", "why"}),
        ({"plan": ["team", "pro"], "pro_note": "both", "exact": 10, "ten": "yes"},
         {"plan", "pro_note", "exact", "ten"}),
        ({}, set()),
    ]
    for given, kept in accepted:
        rec = ws.complete("cond", given)
        assert set(by_key(rec)) == kept, f"{given}: kept {sorted(by_key(rec))}, expected {sorted(kept)}"
        assert {a["field_key"] for a in stored(rec["uuid"])["answers"]} == kept
    before = state(link["uuid"])
    refused = [
        ({"score": 3}, {"why"}),
        ({"score": 3, "why": "   "}, {"why"}),
        ({"score": 3, "plan": ["team", "pro"], "comment": "found a bug"}, {"why", "pro_note", "steps"}),
        ({"score": 8, "exact": 10}, {"ten"}),
    ]
    for given, missing in refused:
        d = details(ws.oneshot("cond", given), "REQUIRED_ANSWER_MISSING")
        assert set(d) == missing, f"{given}: missing {sorted(d)}, expected {sorted(missing)}"
    assert state(link["uuid"]) == before
    # Saved answers to questions hidden at submit are dropped.
    st = ws.start("cond")
    for key, value in (("score", 9), ("why", "saved"), ("plan", "pro"), ("pro_note", "note")):
        expect(ws.answer("cond", st, key, value), 200)
    rec = expect(ws.submit("cond", st, {"plan": "basic"}), 200)
    assert set(by_key(rec)) == {"score", "plan"}, by_key(rec)
    assert {a["field_key"] for a in stored(st["uuid"])["answers"]} == {"score", "plan"}
    st = ws.start("cond")
    expect(ws.answer("cond", st, "score", 2), 200)
    assert set(details(ws.submit("cond", st), "REQUIRED_ANSWER_MISSING")) == {"why"}
    expect(ws.answer("cond", st, "why", "slow"), 200)
    assert set(by_key(expect(ws.submit("cond", st), 200))) == {"score", "why"}


# --- failed submits leave nothing behind ----------------------------------------------------------

@test
@dispatch_paused
def a_failed_submit_stores_nothing_partial():
    ws = Workspace()
    link = ws.link(slug="atomic", questions=[
        {"prompt": "Must", "type": "text", "field_key": "must", "required": True},
        {"prompt": "Num", "type": "number", "field_key": "num", "configuration": {"min": 0, "max": 5}},
        {"prompt": "Note", "type": "text", "field_key": "note"}])
    st = ws.start("atomic", "atomic@example.com")
    expect(ws.answer("atomic", st, "num", 3), 200)
    before = state(link["uuid"])
    row = stored(st["uuid"])
    assert link_counts(link["uuid"]) == (1, 0)
    for answers, code, keys in (({"num": 99, "must": "x"}, "INVALID_ANSWER", {"num"}),
                                ({"must": "x", "nope": 1}, "INVALID_ANSWER", {"nope"}),
                                ({"num": 4, "note": "kept?"}, "REQUIRED_ANSWER_MISSING", {"must"}),
                                ({"must": "  ", "note": "kept?"}, "REQUIRED_ANSWER_MISSING", {"must"}),
                                ({"must": None}, "REQUIRED_ANSWER_MISSING", {"must"})):
        assert set(details(ws.submit("atomic", st, answers), code)) == keys, answers
        assert state(link["uuid"]) == before, f"a failed submit ({code}) changed stored state"
        assert stored(st["uuid"]) == row
    assert [e["type"] for e in outbox(link["uuid"])] == ["response.started"]
    # A failed one-shot stores no row and no event.
    for answers, email, code in (({"num": 9, "must": "x"}, None, "INVALID_ANSWER"),
                                 ({"num": 1}, None, "REQUIRED_ANSWER_MISSING"),
                                 ({"must": "x"}, "bad-email", "VALIDATION_ERROR")):
        expect(ws.oneshot("atomic", answers, email), 400, code)
        assert state(link["uuid"]) == before
    rec = expect(ws.submit("atomic", st, {"must": "finally"}), 200)
    assert {k: a["value"] for k, a in by_key(rec).items()} == {"must": "finally", "num": 3}
    assert [e["type"] for e in outbox(link["uuid"])] == ["response.started", "response.submitted"]
    assert link_counts(link["uuid"]) == (1, 1)
    assert redis_count(link["uuid"]) == "1" and redis_pending(link["uuid"]) == 0


@test
@dispatch_paused
def racing_calls_on_one_response_lose_nothing_and_submit_once():
    ws = Workspace()
    questions = [{"prompt": f"Q{i}", "type": "number", "field_key": f"q{i}"} for i in range(12)]
    link = ws.link(slug="race", questions=questions)
    st = ws.start("race")
    with concurrent.futures.ThreadPoolExecutor(12) as pool:
        puts = list(pool.map(lambda i: ws.answer("race", st, f"q{i}", i), range(12)))
    assert [r.status for r in puts] == [200] * 12, puts
    assert {a["field_key"]: a["value"] for a in stored(st["uuid"])["answers"]} == {f"q{i}": i for i in range(12)}, \
        "concurrent answers to one response overwrote each other"
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        submits = list(pool.map(lambda i: ws.submit("race", st, {"q0": 100 + i}), range(8)))
    assert sorted(r.status for r in submits) == [200] + [409] * 7, [r.status for r in submits]
    winner = next(r.json for r in submits if r.status == 200)
    for r in submits:
        if r.status == 409:
            expect(r, 409, "RESPONSE_ALREADY_SUBMITTED")
    assert stored(st["uuid"])["answers"] == winner["answers"]
    assert [e["type"] for e in outbox(link["uuid"])] == ["response.started", "response.submitted"]
    assert link_counts(link["uuid"]) == (1, 1)
    assert redis_count(link["uuid"]) == "1" and redis_pending(link["uuid"]) == 0


@test
@dispatch_paused
def concurrent_one_shot_submits_are_stored_exactly_with_their_events_and_counts():
    """Concurrent submissions share one statement (each column an array literal): every value,
    with quotes, backslashes, braces, commas and the word NULL, comes back exactly."""
    ws = Workspace()
    link = ws.link(slug="many", questions=[{"prompt": "Say", "type": "text", "field_key": "say"},
                                           {"prompt": "Pick", "type": "yes_no", "field_key": "yn"}])
    said = [f'#{i} "quoted" \\back\\slash\\ {{a,b}} NULL, é 💬 \\"' for i in range(40)]
    def submit(i):
        email = f'n{i}+tag@example.com' if i % 2 else None
        return ws.oneshot("many", {"say": said[i], "yn": i % 3 == 0} if i % 4 else {"say": said[i]}, email=email)
    with concurrent.futures.ThreadPoolExecutor(40) as pool:
        answered = list(pool.map(submit, range(40)))
    assert [r.status for r in answered] == [201] * 40, [(r.status, r.json) for r in answered if r.status != 201]
    for i, r in enumerate(answered):
        rec = r.json
        assert by_key(rec)["say"]["value"] == said[i]
        assert rec.get("respondent_email") == (f'n{i}+tag@example.com' if i % 2 else None)
        assert expect(ws.call("GET", f"links/{link['uuid']}/responses/{rec['uuid']}/"), 200) == rec
        row = stored(rec["uuid"])
        assert row["status"] == "completed" and row["answers"] == rec["answers"]
        assert said[i].lower() in row["search_text"]  # kept folded (responses migration 014)
        events = outbox(link["uuid"], rec["uuid"])
        assert [e["type"] for e in events] == ["response.started", "response.submitted"], events
        assert events[1]["payload"]["data"]["response"] == rec
    assert link_counts(link["uuid"]) == (40, 40)
    assert redis_count(link["uuid"]) == "40" and redis_pending(link["uuid"]) == 0
    assert expect(ws.call("GET", f"links/{link['uuid']}/"), 200)["response_count"] == 40
    search = urllib.parse.quote('#17 "quoted"')
    found = expect(ws.call("GET", f"links/{link['uuid']}/responses/?search={search}"), 200)
    assert [r["uuid"] for r in found["results"]] == [answered[17].json["uuid"]]


@test
@dispatch_paused
def concurrent_one_shot_submits_are_each_answered_on_their_own():
    """Submissions that travel together to the responses service (the gateway gathers those
    that arrive while its earlier calls are under way) still succeed or fail one by one: each
    refused one gets its own error and details and stores nothing, the others are stored."""
    ws = Workspace()
    link = ws.link(slug="mixed", questions=[
        {"prompt": "Must", "type": "text", "field_key": "must", "required": True},
        {"prompt": "Num", "type": "number", "field_key": "num", "configuration": {"min": 0, "max": 5}}])
    def submit(i):
        kind = i % 3
        answers = ({"must": f"ok {i}", "num": i % 5} if kind == 0 else
                   {"must": f"bad {i}", "num": 99} if kind == 1 else {"num": 1})
        return kind, ws.oneshot("mixed", answers)
    with concurrent.futures.ThreadPoolExecutor(48) as pool:
        answered = list(pool.map(submit, range(96)))
    stored_uuids = set()
    for kind, r in answered:
        if kind == 0:
            stored_uuids.add(expect(r, 201)["uuid"])
        elif kind == 1:
            assert details(r, "INVALID_ANSWER").keys() == {"num"}, r
        else:
            assert details(r, "REQUIRED_ANSWER_MISSING").keys() == {"must"}, r
    assert len(stored_uuids) == 32
    assert {row[0] for row in sql(f"SELECT uuid FROM responses.responses WHERE link_uuid = '{link['uuid']}'")} \
        == stored_uuids
    assert len(outbox(link["uuid"])) == 64
    assert link_counts(link["uuid"]) == (32, 32)
    assert expect(ws.call("GET", f"links/{link['uuid']}/"), 200)["response_count"] == 32


# --- outbox -----------------------------------------------------------------------------------------

@test
@dispatch_paused
def events_carry_the_record_the_respondent_was_answered():
    ws = Workspace()
    link = ws.link(name="Events", slug="events", questions=[
        {"prompt": "Rate", "type": "rating", "field_key": "rate", "configuration": {"scale_type": "emojis"}},
        {"prompt": "Card", "type": "image_choice", "field_key": "card", "configuration": {"cards": CARDS}},
        {"prompt": "Say", "type": "text", "field_key": "say"},
        {"prompt": "Double", "type": "calculated", "field_key": "dbl", "configuration": {"formula": "rate * 2"}}])
    want_link = {"uuid": link["uuid"], "name": "Events", "slug": "events"}
    st = ws.start("events", "ev@example.com")
    expect(ws.answer("events", st, "rate", 4), 200)
    rec = expect(ws.submit("events", st, {"card": "c2", "say": "hi"}), 200)
    assert rec["status"] == "completed" and rec["respondent_email"] == "ev@example.com"
    events = outbox(link["uuid"], st["uuid"])
    assert [e["type"] for e in events] == ["response.started", "response.submitted"], events
    sub = events[1]
    assert (sub["workspace_uuid"], sub["link_uuid"], sub["response_uuid"]) == (ws.uuid, link["uuid"], rec["uuid"])
    assert sub["payload"] == {"type": "response.submitted", "timestamp": rec["submitted_at"],
                              "data": {"workspace_uuid": ws.uuid, "link": want_link, "response": rec}}, sub["payload"]
    assert events[0]["payload"]["timestamp"] == rec["started_at"]
    got = by_key(sub["payload"]["data"]["response"])
    assert got["rate"]["rating_details"] == {"value": 4, "max_value": 5, "scale_type": "emojis"}
    assert got["card"]["selected_card"] == {"card_id": "c2", "label": "Dog", "media_url": CARDS[1]["media_url"],
                                            "media_type": "video"}
    assert got["dbl"]["value"] == 8
    assert expect(ws.call("GET", f"links/{link['uuid']}/responses/{rec['uuid']}/"), 200) == rec
    # One-shot: both events, in order (one row), the submitted one with the answered record.
    expect(ws.call("PATCH", f"links/{link['uuid']}/", json={"name": "Events renamed"}), 200)
    one = ws.complete("events", {"rate": 1, "card": "c1"}, email="one@example.com")
    events = outbox(link["uuid"], one["uuid"])
    assert [e["type"] for e in events] == ["response.started", "response.submitted"], events
    assert events[0]["id"] < events[1]["id"]
    assert events[1]["payload"] == {
        "type": "response.submitted", "timestamp": one["submitted_at"],
        "data": {"workspace_uuid": ws.uuid, "link": dict(want_link, name="Events renamed"), "response": one}}
    assert events[0]["payload"]["data"]["response"]["uuid"] == one["uuid"]
    assert events[0]["payload"]["data"]["link"]["name"] == "Events renamed"
    ids = [e["event_id"] for e in outbox(link["uuid"])]
    assert len(ids) == 4 and len(set(ids)) == 4, ids
    assert all(str(uuid.UUID(i)) == i for i in ids)


# --- regressions --------------------------------------------------------------------------------

@test
def nul_characters_are_refused_in_stored_fields_but_kept_exactly_in_answers():
    ws = Workspace()
    links_before = sql(f"SELECT count(*) FROM links.links WHERE workspace_uuid = '{ws.uuid}'")
    keys_before = sql(f"SELECT count(*) FROM tokens.api_keys WHERE workspace_uuid = '{ws.uuid}'")
    for body, path in (({"name": "bad\u0000name"}, "name"),
                       ({"name": "ok", "questions": [{"prompt": "fine"}, {"prompt": "bad\u0000prompt"}]},
                        "questions[1].prompt")):
        assert path in details(ws.call("POST", "links/", json=body), "VALIDATION_ERROR"), body
    assert "name" in details(ws.call("POST", "tokens/", json={"name": "tok\u0000en"}), "VALIDATION_ERROR")
    # A field with an error code of its own refuses U+0000 with that code.
    for body, code, path in (({"name": "ok", "slug": "a\u0000b"}, "INVALID_SLUG", "slug"),
                             ({"name": "ok", "questions": [{"prompt": "p", "type": "te\u0000xt"}]},
                              "INVALID_QUESTION_TYPE", "questions[0].type"),
                             ({"name": "ok", "on_finished": {"webhook_url": "https://a\u0000.example.com/"}},
                              "INVALID_WEBHOOK_URL", "on_finished.webhook_url")):
        assert path in details(ws.call("POST", "links/", json=body), code), body
    assert "url" in details(ws.call("POST", f"workspaces/{ws.uuid}/webhooks/",
                                    json={"url": "https://a\u0000.example.com/", "events": ["response.submitted"]}),
                            "INVALID_WEBHOOK_URL")
    assert sql(f"SELECT count(*) FROM links.links WHERE workspace_uuid = '{ws.uuid}'") == links_before
    assert sql(f"SELECT count(*) FROM tokens.api_keys WHERE workspace_uuid = '{ws.uuid}'") == keys_before
    link = ws.link(name="Nul", slug="nul", questions=[
        {"prompt": "Text", "type": "text", "field_key": "t"},
        {"prompt": "Voice", "type": "voice", "field_key": "v"}])
    for body, path in (({"name": "x\u0000"}, "name"),
                       ({"questions": [{"prompt": "p\u0000", "type": "text", "field_key": "t"}]},
                        "questions[0].prompt")):
        assert path in details(ws.call("PATCH", f"links/{link['uuid']}/", json=body), "VALIDATION_ERROR")
    assert "slug" in details(ws.call("PATCH", f"links/{link['uuid']}/", json={"slug": "nul\u0000"}), "INVALID_SLUG")
    assert expect(ws.call("GET", f"links/{link['uuid']}/"), 200) == link
    value = "before\u0000after \u0000"
    rec = ws.complete("nul", {"t": value, "v": "\u0000"})
    assert by_key(rec)["t"]["value"] == value and by_key(rec)["v"]["value"] == "\u0000"
    assert {a["field_key"]: a["value"] for a in stored(rec["uuid"])["answers"]} == {"t": value, "v": "\u0000"}
    st = ws.start("nul")
    assert expect(ws.answer("nul", st, "t", value), 200)["value"] == value
    assert stored(st["uuid"])["answers"][0]["value"] == value
    rec2 = expect(ws.submit("nul", st), 200)
    assert by_key(rec2)["t"]["value"] == value
    detail = expect(ws.call("GET", f"links/{link['uuid']}/responses/{rec['uuid']}/"), 200)
    assert detail == rec
    listed = expect(ws.call("GET", f"links/{link['uuid']}/responses/?search=after"), 200)
    assert {r["uuid"] for r in listed["results"]} == {rec["uuid"], rec2["uuid"]}
    assert all(by_key(r)["t"]["value"] == value for r in listed["results"])
    assert "search" in details(ws.call("GET", f"links/{link['uuid']}/responses/?search=a%00b"), "VALIDATION_ERROR")
    # Question configuration and conditions are JSON kept as given: U+0000 in an option is exact.
    ws.link(slug="nul-options", questions=[
        {"prompt": "Pick", "type": "multiple_choice", "field_key": "m",
         "configuration": {"options": ["a\u0000b", "a"]}},
        {"prompt": "Then", "type": "text", "field_key": "t", "required": True,
         "condition": cond("m", "equals", "a\u0000b")}])
    assert set(details(ws.oneshot("nul-options", {"m": "a\u0000b"}), "REQUIRED_ANSWER_MISSING")) == {"t"}
    assert set(details(ws.oneshot("nul-options", {"m": "a\u0000c"}), "INVALID_ANSWER")) == {"m"}
    assert set(by_key(ws.complete("nul-options", {"m": "a", "t": "dropped"}))) == {"m"}
    rec = ws.complete("nul-options", {"m": "a\u0000b", "t": "x"})
    assert by_key(rec)["m"]["value"] == "a\u0000b"


@test
def a_condition_or_configuration_that_is_not_an_object_is_refused_with_its_own_code():
    ws = Workspace()
    first = {"prompt": "First", "type": "number", "field_key": "first"}
    link = ws.link(slug="keep", questions=[first])
    count = sql(f"SELECT count(*) FROM links.links WHERE workspace_uuid = '{ws.uuid}'")
    for bad in ("x", [1], [], 5, True):
        for method, target, body in (
                ("POST", "links/", {"name": "n", "questions": [first, {"prompt": "Q", "condition": bad}]}),
                ("PATCH", f"links/{link['uuid']}/", {"questions": [first, {"prompt": "Q", "condition": bad}]})):
            d = details(ws.call(method, target, json=body), "INVALID_CONDITION")
            assert "questions[1].condition" in d, (method, bad, d)
        for method, target, body in (
                ("POST", "links/", {"name": "n", "questions": [first, {"prompt": "Q", "type": "number",
                                                                       "configuration": bad}]}),
                ("PATCH", f"links/{link['uuid']}/", {"questions": [first, {"prompt": "Q", "type": "number",
                                                                          "configuration": bad}]})):
            d = details(ws.call(method, target, json=body), "INVALID_CONFIGURATION")
            assert "questions[1].configuration" in d, (method, bad, d)
    assert sql(f"SELECT count(*) FROM links.links WHERE workspace_uuid = '{ws.uuid}'") == count
    assert expect(ws.call("GET", f"links/{link['uuid']}/"), 200) == link
