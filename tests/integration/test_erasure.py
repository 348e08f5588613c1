"""Erasure and retention (docs/api.md "Erasure and retention"): a deleted response leaves
nothing anywhere (checked table by table, in Redis, on every gateway and at its receivers), a
respondent's erasure of 10,000 responses beside submissions into the same links, retention of
a backdated response by two responses-service replicas at once, scopes and refusals.

Respondents erased here have emails and answers of a shape no other test uses
(ERASED_EMAIL, ERASED_WORD): test_secrets, which runs last, checks that none of them is left in
the logs, /metrics, PostgreSQL or Redis."""
import concurrent.futures
import json
import os
import re
import subprocess
import time
import urllib.parse
import uuid

import media_files
from harness import (ENV, GATEWAYS, ROOT, STACK_DIR, ExtraProcess, Workspace, expect, feedbackctl,
                     intake, metrics, redis, request, sql, stack, test, wait_until, webhooks_ready)
from webhook_receiver import Receiver

# What test_secrets looks for once the run is over.
ERASED_EMAIL = re.compile(r"erased-respondent-[0-9a-f]{12}@example\.com")
ERASED_WORD = re.compile(r"erasedword[0-9a-f]{12}")
CA_DIR = os.path.dirname(ENV.get("WEBHOOK_CA_BUNDLE") or os.path.join(STACK_DIR, "no-ca", "ca.pem"))
QUESTIONS = [
    {"prompt": "What should we change?", "type": "text", "field_key": "change",
     "enable_dynamic_probing": True,
     "evaluator_config": {"clarity_threshold": 0.7, "max_follow_ups": 1}},
    {"prompt": "Attach the invoice", "type": "file_upload", "field_key": "doc",
     "configuration": {"allowed_types": ["application/pdf"], "max_size_mb": 1}},
    {"prompt": "Tell us about your visit", "type": "voice", "field_key": "said",
     "configuration": {"max_duration": 60}},
]


def _email():
    return f"erased-respondent-{uuid.uuid4().hex[:12]}@example.com"


def _word():
    return f"erasedword{uuid.uuid4().hex[:12]}"


def _count(ws, link, gateway=None):
    return expect(ws.call("GET", f"links/{link['uuid']}/", gateway=gateway), 200)["response_count"]


def _rows(query):
    return int(sql(query)[0][0])


def _upload(ws, slug, st, key, body, content_type, kind):
    return expect(ws.intake("POST", f"/i/{slug}/responses/{st['uuid']}/{kind}/{key}/", token=st["token"],
                            headers={"Content-Type": content_type, "X-File-Name": "invoice.pdf"},
                            body=body, timeout=60), 200)


def _everything_of(response_uuid, blob_uuids, event_ids):
    """Rows anywhere in PostgreSQL that still belong to the response, table by table."""
    blobs = ",".join(f"'{b}'" for b in blob_uuids) or "NULL"
    events = ",".join(f"'{e}'" for e in event_ids) or "NULL"
    checks = {
        "responses.responses": f"SELECT count(*) FROM responses.responses WHERE uuid = '{response_uuid}'",
        "responses.response_facts":
            f"SELECT count(*) FROM responses.response_facts WHERE response_uuid = '{response_uuid}'",
        "responses.insight_jobs":
            f"SELECT count(*) FROM responses.insight_jobs WHERE response_uuid = '{response_uuid}'",
        "responses.outbox_events":
            f"SELECT count(*) FROM responses.outbox_events WHERE response_uuid = '{response_uuid}'",
        "responses.blobs": f"SELECT count(*) FROM responses.blobs WHERE response_uuid = '{response_uuid}'"
                           f" OR uuid IN ({blobs})",
        "responses.blob_chunks": f"SELECT count(*) FROM responses.blob_chunks WHERE blob_uuid IN ({blobs})",
        "responses.speech_server_jobs":
            f"SELECT count(*) FROM responses.speech_server_jobs WHERE response_uuid = '{response_uuid}'",
        "webhooks.pending": f"SELECT count(*) FROM webhooks.pending WHERE event_id IN ({events})",
        "webhooks.events with a payload":
            f"SELECT count(*) FROM webhooks.events WHERE response_uuid = '{response_uuid}'"
            " AND payload IS NOT NULL",
        "webhooks.deliveries with a receiver's answer":
            f"SELECT count(*) FROM webhooks.deliveries WHERE event_id IN ({events})"
            " AND response_body IS NOT NULL",
    }
    return {table: n for table, q in checks.items() if (n := _rows(q))}


@test
def a_deleted_response_leaves_nothing_anywhere():
    ws = Workspace()
    link = ws.link(slug="erase-all", questions=QUESTIONS)
    keep = ws.complete("erase-all", {"change": "keep this one please"}, email="keeper@example.com")
    email, word = _email(), _word()
    with Receiver(CA_DIR) as rx:
        ok, failing = rx.endpoint(), rx.endpoint(answers=[500] * 20)
        for ep in (ok, failing):
            expect(ws.call("POST", f"workspaces/{ws.uuid}/webhooks/",
                           json={"url": ep.url, "events": ["response.started", "response.submitted"]}), 201)
        st = ws.start("erase-all", email=email)
        a = expect(ws.answer("erase-all", st, "change", f"stuff {word}"), 200)
        assert a["follow_up"], a  # unclear: a follow-up is asked
        expect(ws.intake("POST", f"/i/erase-all/responses/{st['uuid']}/answers/change/follow_ups/",
                         token=st["token"], json={"value": f"the pricing page is confusing, {word}"}), 200)
        _upload(ws, "erase-all", st, "doc", media_files.pdf(), "application/pdf", "files")
        _upload(ws, "erase-all", st, "said", media_files.wav(1.0), "audio/wav", "audio")
        rec = expect(ws.submit("erase-all", st), 200)
        # Delivered once to `ok`; `failing` has had two attempts, and a retry waits (3 s apart
        # at WEBHOOK_RETRY_SCALE=0.01).
        assert len(ok.wait(2, 15)) == 2
        assert len(failing.wait(4, 15)) >= 4
        attempts = len(failing.deliveries)
        detail = expect(ws.call("GET", f"links/{link['uuid']}/responses/{rec['uuid']}/"), 200)
        answers = {x["field_key"]: x for x in detail["answers"]}
        assert answers["change"]["ai_insights"] and answers["change"]["follow_ups"], answers["change"]
        media = [answers["doc"]["value"]["url"], answers["said"]["audio_url"]]
        assert all(intake(urllib.parse.urlsplit(u).netloc, "GET", urllib.parse.urlsplit(u).path + "?" +
                          urllib.parse.urlsplit(u).query).status == 200 for u in media)
        blobs = [r[0] for r in sql(f"SELECT uuid FROM responses.blobs WHERE response_uuid = '{rec['uuid']}'")]
        assert len(blobs) == 2, blobs
        events = [r[0] for r in sql(f"SELECT event_id FROM webhooks.events WHERE response_uuid = '{rec['uuid']}'")]
        assert len(events) == 2, events
        assert _rows(f"SELECT count(*) FROM webhooks.pending WHERE event_id IN "
                     f"({','.join(repr(e) for e in events)})") >= 1, "a retry is pending"
        for gateway in GATEWAYS:
            assert _count(ws, link, gateway) == 2
        # A page of the list kept by each gateway before the deletion.
        for gateway in GATEWAYS:
            expect(ws.call("GET", f"links/{link['uuid']}/responses/", gateway=gateway), 200)
            expect(ws.call("GET", f"links/{link['uuid']}/responses/", gateway=gateway), 200)

        r = expect(ws.call("DELETE", f"links/{link['uuid']}/responses/{rec['uuid']}/"), 200)
        assert isinstance(r["message"], str), r

        left = _everything_of(rec["uuid"], blobs, events)
        assert not left, f"rows of the deleted response remain: {left}"
        for gateway in GATEWAYS:
            assert _count(ws, link, gateway) == 1, gateway
            listed = expect(ws.call("GET", f"links/{link['uuid']}/responses/", gateway=gateway), 200)
            assert [x["uuid"] for x in listed["results"]] == [keep["uuid"]], (gateway, listed)
            expect(ws.call("GET", f"links/{link['uuid']}/responses/{rec['uuid']}/", gateway=gateway), 404)
        assert expect(ws.call("GET", f"links/{link['uuid']}/responses/?search={word}"), 200)["count"] == 0
        assert expect(ws.call("GET", f"responses/?search={urllib.parse.quote(email)}&status=all"),
                      200)["count"] == 0
        assert expect(ws.call("GET", f"links/{link['uuid']}/summary/"), 200)["response_count"] == 1
        for u in media:
            parts = urllib.parse.urlsplit(u)
            assert intake(parts.netloc, "GET", parts.path + "?" + parts.query).status == 404, u
        # The deliveries stay listed, without their payloads; no retry is made any more, and a
        # redelivery has nothing to send.
        hooks = expect(ws.call("GET", f"workspaces/{ws.uuid}/webhooks/"), 200)["results"]
        listed = [d for h in hooks for d in expect(ws.call(
            "GET", f"workspaces/{ws.uuid}/webhooks/{h['uuid']}/deliveries/?page_size=100"), 200)["results"]]
        assert len(listed) >= 2 + attempts, listed
        delivery = next(d for d in listed if d["status"] == "succeeded")
        hook = next(h for h in hooks if h["url"] == ok.url)
        expect(ws.call("POST", f"workspaces/{ws.uuid}/webhooks/{hook['uuid']}/deliveries/"
                       f"{delivery['uuid']}/redeliver/"), 404)
        time.sleep(4)
        assert len(failing.deliveries) == attempts, "a send of the erased response was made after it"
        assert len(ok.deliveries) == 2
    # (test_secrets, at the end of the run, looks for the email and the word in a dump of the
    # whole database, in Redis, the logs and /metrics.)
    keys = redis("--scan", "--pattern", "*").split()
    assert not [k for k in keys if rec["uuid"] in k], "Redis holds a key of the erased response"
    # The audit line: which response, whose, by which key; never the email.
    with open(os.path.join(STACK_DIR, "logs", "responses.log"), errors="replace") as f:
        lines = [json.loads(line) for line in f if '"response_erased"' in line and rec["uuid"] in line]
    assert len(lines) == 1, lines
    assert lines[0]["workspace_uuid"] == ws.uuid and lines[0]["by"] == ws.key[:12], lines[0]
    assert lines[0]["reason"] == "deleted" and email not in json.dumps(lines[0])
    expect(ws.call("DELETE", f"links/{link['uuid']}/responses/{rec['uuid']}/"), 404)


@test
def deleting_and_erasing_need_responses_write_and_valid_input():
    ws, other = Workspace(), Workspace()
    link = ws.link(slug="erase-rules", questions=[{"prompt": "Why?", "field_key": "why"}])
    rec = ws.complete("erase-rules", {"why": "because"})
    seven = ["links:read", "links:write", "responses:read", "webhooks:read", "webhooks:write",
             "tokens:read", "tokens:write"]
    without = ws.token(scopes=seven)["key"]
    path = f"links/{link['uuid']}/responses/{rec['uuid']}/"
    expect(request("DELETE", path, key=without), 403, "INSUFFICIENT_SCOPE")
    expect(request("POST", "responses/erase/", key=without, json={"respondent_email": "a@example.com"}),
           403, "INSUFFICIENT_SCOPE")
    # A key made without `scopes` holds its maker's, responses:write included.
    full = ws.token()
    assert "responses:write" in full["scopes"], full
    expect(other.call("DELETE", path), 404)
    expect(ws.call("DELETE", f"links/{uuid.uuid4()}/responses/{rec['uuid']}/"), 404)
    expect(ws.call("DELETE", f"links/{link['uuid']}/responses/{uuid.uuid4()}/"), 404)
    expect(ws.call("DELETE", f"links/{link['uuid']}/responses/not-a-uuid/"), 404)
    for body in ({}, {"respondent_email": "nope"}, {"respondent_email": 5}, {"respondent_email": None},
                 {"respondent_email": "a@example.com", "extra": 1}):
        expect(ws.call("POST", "responses/erase/", json=body), 400, "VALIDATION_ERROR")
    expect(ws.call("POST", "responses/erase/", body=b"{", headers={"Content-Type": "application/json"}), 400)
    assert expect(request("DELETE", path, key=full["key"]), 200)["message"]
    # A response outlives its link (docs/api.md "Responses"): it can be deleted after it too.
    gone = ws.link(slug="erase-rules-gone", questions=[{"prompt": "Why?", "field_key": "why"}])
    orphan = ws.complete("erase-rules-gone", {"why": "still here"})
    expect(ws.call("DELETE", f"links/{gone['uuid']}/"), 200)
    expect(ws.call("DELETE", f"links/{gone['uuid']}/responses/{orphan['uuid']}/"), 200)
    assert _rows(f"SELECT count(*) FROM responses.responses WHERE uuid = '{orphan['uuid']}'") == 0


@test
def a_workspace_whose_keys_predate_responses_write_gets_one_from_the_cli():
    ws = Workspace()
    # As a workspace made before the scope existed: its key holds the seven others.
    sql(f"UPDATE tokens.api_keys SET scopes = array_remove(scopes, 'responses:write')"
        f" WHERE workspace_uuid = '{ws.uuid}'")
    link = ws.link(slug="erase-old-keys", questions=[{"prompt": "Why?", "field_key": "why"}])
    rec = ws.complete("erase-old-keys", {"why": "old"})
    path = f"links/{link['uuid']}/responses/{rec['uuid']}/"
    expect(ws.call("DELETE", path), 403, "INSUFFICIENT_SCOPE")
    expect(ws.call("POST", "tokens/", json={"name": "x", "scopes": ["responses:write"]}), 400,
           "INVALID_SCOPE")
    r = feedbackctl("workspace", "create-key", ws.uuid, "--name", "Privacy team")
    assert r.returncode == 0, r.stderr
    made = json.loads(r.stdout)
    assert made["name"] == "Privacy team" and "responses:write" in made["scopes"], made
    assert made["prefix"] == made["api_key"][:12]
    expect(request("DELETE", path, key=made["api_key"]), 200)
    listed = expect(ws.call("GET", "tokens/"), 200)["results"]
    assert made["uuid"] in [t["uuid"] for t in listed]
    r = feedbackctl("workspace", "create-key", str(uuid.uuid4()))
    assert r.returncode == 1 and "No such workspace" in r.stderr, (r.returncode, r.stderr)


def _seed(ws, link_uuid, count, email):
    r = subprocess.run([os.path.join(ROOT, "scripts", "seed-responses"), "--count", str(count),
                        "--link-uuid", link_uuid, "--workspace-uuid", ws.uuid, "--api-key", ws.key,
                        "--respondent-email", email, "--batch", "5000"],
                       capture_output=True, text=True, timeout=600, env=dict(os.environ, STACK_DIR=STACK_DIR))
    assert r.returncode == 0, r.stderr[-2000:]


@test
def a_respondents_erasure_of_10000_leaves_concurrent_submissions_alone():
    ws = Workspace()
    body = json.load(open(os.path.join(ROOT, "tests", "bench", "link_5_questions.json")))
    links = [expect(ws.call("POST", "links/", json=dict(body, slug=f"erase-many-{i}")), 201) for i in range(2)]
    email = _email()
    for link in links:
        _seed(ws, link["uuid"], 5000, email)
    # Mixed case, as respondents type it: compared case-insensitively.
    ws.complete(links[0]["slug"], {"nps": 3}, email=email.upper())
    submitted, latencies, stop = [], [], []

    def submit_beside(i):
        while not stop:
            began = time.monotonic()
            r = ws.oneshot(links[i % 2]["slug"], {"nps": 9}, email=f"bystander{i}@example.com")
            latencies.append(time.monotonic() - began)
            assert r.status == 201, r
            submitted.append(r.json["uuid"])

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        beside = [pool.submit(submit_beside, i) for i in range(4)]
        time.sleep(0.5)
        began = time.monotonic()
        r = expect(ws.call("POST", "responses/erase/", json={"respondent_email": email}, timeout=600), 200)
        took = time.monotonic() - began
        stop.append(True)
        for f in beside:
            f.result()
    assert r["erased"] == 10001, r
    latencies.sort()
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000
    print(f"    erased 10,001 responses in {took:.1f} s ({10001 / took:,.0f}/s); {len(submitted)} "
          f"submissions beside it, p50 {latencies[len(latencies) // 2] * 1000:.1f} ms, p99 {p99:.1f} ms")
    assert len(submitted) > 20, len(submitted)
    assert p99 < 1000, f"submissions beside the erasure waited up to {p99:.0f} ms (p99)"
    left = {row[0] for row in sql(f"SELECT uuid FROM responses.responses WHERE workspace_uuid = '{ws.uuid}'")}
    assert left == set(submitted), f"{len(left)} left, {len(submitted)} submitted beside the erasure"
    for link in links:
        of_link = {x[0] for x in sql(f"SELECT uuid FROM responses.responses WHERE link_uuid = '{link['uuid']}'")}
        for gateway in GATEWAYS:
            assert _count(ws, link, gateway) == len(of_link & set(submitted)), (gateway, link["slug"])
    assert _rows(f"SELECT count(*) FROM responses.response_facts WHERE workspace_uuid = '{ws.uuid}'") == len(submitted)
    with open(os.path.join(STACK_DIR, "logs", "responses.log"), errors="replace") as f:
        progress = [line for line in f if '"erasure_progress"' in line and ws.uuid in line]
    assert len(progress) >= 10001 // 500, len(progress)
    assert expect(ws.call("POST", "responses/erase/", json={"respondent_email": email}), 200)["erased"] == 0


@test
def retention_erases_what_is_older_once_with_two_replicas():
    ws = Workspace()
    body = json.load(open(os.path.join(ROOT, "tests", "bench", "link_5_questions.json")))
    link = expect(ws.call("POST", "links/", json=dict(body, slug="retained")), 201)
    # 600 completed responses (so that both replicas find batches to take) and one in progress,
    # all backdated past the retention; then one newer, which stays.
    _seed(ws, link["uuid"], 600, _email())
    started_long_ago = ws.start("retained")
    sql("UPDATE responses.responses SET started_at = now() - interval '40 days',"
        " submitted_at = CASE WHEN submitted_at IS NULL THEN NULL ELSE now() - interval '31 days' END,"
        " sort_at = CASE WHEN submitted_at IS NULL THEN now() - interval '40 days'"
        " ELSE now() - interval '31 days' END"
        f" WHERE workspace_uuid = '{ws.uuid}'")
    backdated = {row[0] for row in sql(f"SELECT uuid FROM responses.responses WHERE workspace_uuid = '{ws.uuid}'")}
    assert len(backdated) == 601 and started_long_ago["uuid"] in backdated
    new = ws.complete("retained", {"nps": 9})
    r = feedbackctl("workspace", "set-plan", ws.uuid, "enterprise", "--retention-days", "30")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["retention_days"] == 30
    with ExtraProcess("responses", log_name="responses-retention-1", RETENTION_INTERVAL_MS="300") as a, \
            ExtraProcess("responses", log_name="responses-retention-2", RETENTION_INTERVAL_MS="300") as b:
        wait_until(lambda: _rows(f"SELECT count(*) FROM responses.responses WHERE workspace_uuid = '{ws.uuid}'") == 1,
                   timeout=60, what="retention")
        time.sleep(1)  # a run after the last erasure sets the gauges
        ages = [metrics(p.admin_url).get(f'responses_oldest_retained_age_seconds{{workspace_uuid="{ws.uuid}"}}')
                for p in (a, b)]
    assert all(age is not None and age < 120 for age in ages), ages
    # The stack's own replica runs retention too (every 10 minutes): its lines count with theirs.
    audited = []
    for path in (a.log_path, b.log_path, os.path.join(STACK_DIR, "logs", "responses.log")):
        with open(path, errors="replace") as f:
            audited += [json.loads(line)["response_uuid"] for line in f
                        if '"response_erased"' in line and ws.uuid in line]
    assert len(audited) == len(set(audited)) == 601, (len(audited), len(set(audited)))
    assert set(audited) == backdated
    listed = expect(ws.call("GET", f"links/{link['uuid']}/responses/?status=all"), 200)["results"]
    assert [x["uuid"] for x in listed] == [new["uuid"]], listed
    for gateway in GATEWAYS:
        assert _count(ws, link, gateway) == 1
    r = feedbackctl("workspace", "set-plan", ws.uuid, "enterprise", "--retention-days", "none")
    assert r.returncode == 0 and json.loads(r.stdout)["retention_days"] is None, r.stdout + r.stderr


@test
def a_claimed_send_still_waiting_its_turn_is_not_made():
    """A dispatcher that sends one event at a time to an endpoint holds the next one claimed in
    memory: erasing that event's response drops it there (webhooks_erased), so that only a send
    already on the wire can still go out."""
    ws = Workspace()
    ws.link(slug="erase-claimed", questions=[{"prompt": "Why?", "field_key": "why"}])
    with Receiver(CA_DIR) as rx:
        slow = rx.endpoint(delay=3.0)
        hook = expect(ws.call("POST", f"workspaces/{ws.uuid}/webhooks/",
                              json={"url": slow.url, "events": ["response.submitted"]}), 201)
        # The stack's dispatcher gives way to one that sends one event at a time per endpoint.
        stack("stop-service", "webhooks")
        try:
            with ExtraProcess("webhooks", log_name="webhooks-one-at-a-time",
                              WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT="1") as dispatcher:
                first = ws.complete("erase-claimed", {"why": "first"})
                assert len(slow.wait(1, 10)) == 1  # being answered, slowly
                second = ws.complete("erase-claimed", {"why": f"second {_word()}"}, email=_email())

                def claimed():
                    rows = sql("SELECT p.due_at > now() FROM webhooks.pending p JOIN webhooks.events e"
                               f" ON e.event_id = p.event_id WHERE e.response_uuid = '{second['uuid']}'")
                    return rows == [["t"]]
                wait_until(claimed, 10, "the second send claimed while the first is under way")
                expect(ws.call("DELETE", f"links/{first['link_uuid']}/responses/{second['uuid']}/"), 200)
                time.sleep(5)  # the first send ends after 3 s; the second would follow at once
                sent = [d.json["data"]["response"]["uuid"] for d in slow.deliveries]
                assert sent == [first["uuid"]], sent
                dropped = metrics(dispatcher.admin_url).get("webhook_sends_erased_total", 0)
                assert dropped == 1, dropped
                assert _rows(f"SELECT count(*) FROM webhooks.deliveries WHERE webhook_uuid = '{hook['uuid']}'") == 1
        finally:
            stack("start-service", "webhooks")
            wait_until(webhooks_ready, what="webhooks service back")
