"""Webhooks on a real stack: the management API, signed deliveries to real HTTPS receivers,
retries, Retry-After, 410, redelivery, the test event, automatic on_finished webhooks, SSRF at
registration and at connect time, a hung receiver beside a healthy one. (No event lost while
dispatchers are killed under load, a second one running: scripts/chaos --quick, which
scripts/test runs.) The stack runs with WEBHOOK_ALLOW_PRIVATE, WEBHOOK_CA_BUNDLE and
WEBHOOK_RETRY_SCALE=0.01 (scripts/test)."""
import concurrent.futures
import os
import subprocess
import time
import uuid

import harness
from harness import (ENV, STACK_DIR, ExtraProcess, Workspace, expect, sql, stack, stack_unit_tests,
                     test, wait_until, webhooks_ready)
from webhook_receiver import Receiver, signature_ok

CA_DIR = os.path.dirname(ENV.get("WEBHOOK_CA_BUNDLE") or os.path.join(STACK_DIR, "no-ca", "ca.pem"))
QUESTIONS = [{"prompt": "Why?", "field_key": "why"}, {"prompt": "Score?", "field_key": "score",
              "type": "rating", "configuration": {"scale_type": "nps"}}]
SUBMITTED = ["response.submitted"]


def _receiver():
    assert ENV.get("WEBHOOK_CA_BUNDLE"), "the stack must run with WEBHOOK_CA_BUNDLE (scripts/test)"
    return Receiver(CA_DIR)


def _hook(ws, url, events=SUBMITTED, **extra):
    return expect(ws.call("POST", f"workspaces/{ws.uuid}/webhooks/",
                          json={"url": url, "events": events, **extra}), 201)


def _deliveries(ws, hook):
    return expect(ws.call("GET", f"workspaces/{ws.uuid}/webhooks/{hook['uuid']}/deliveries/"
                          "?page_size=100"), 200)


def _of(kind):
    return lambda d: d.json.get("type") == kind


def _about(record):
    """Deliveries of the events of one response."""
    return lambda d: d.json["data"]["response"]["uuid"] == record["uuid"]


def _queued(hook):
    return int(sql(f"SELECT count(*) FROM webhooks.pending WHERE webhook_uuid = '{hook['uuid']}'")[0][0])


@test
def a_submission_is_delivered_signed_with_rating_details():
    ws = Workspace()
    with _receiver() as rx:
        ep = rx.endpoint()
        hook = _hook(ws, ep.url, ["response.started", "response.submitted"])
        ws.link(slug="deliver", questions=QUESTIONS)
        rec = ws.complete("deliver", {"why": "fast", "score": 9}, email="a@example.com")
        got = ep.wait(2, 10)
        assert len(got) == 2, f"deliveries: {[d.json for d in got]}"
        for d in got:
            assert signature_ok(hook["secret"], d), d.headers
            assert d.headers["content-type"].startswith("application/json")
            assert d.json["data"]["response"]["uuid"] == rec["uuid"]
        # Both events, each with its own id (in parallel, so not necessarily in order).
        by_type = {d.json["type"]: d for d in got}
        assert set(by_type) == {"response.started", "response.submitted"}
        assert got[0].headers["webhook-id"] != got[1].headers["webhook-id"]
        # One outbox row carried both: their bodies differ in their type alone.
        started, submitted = (dict(by_type[t].json, type=None) for t in ("response.started", "response.submitted"))
        assert started == submitted, (started, submitted)
        assert by_type["response.started"].body.startswith(b'{"type":"response.started",')
        answers = {a["field_key"]: a for a in by_type["response.submitted"].json["data"]["response"]["answers"]}
        assert answers["score"]["rating_details"] == {"value": 9, "max_value": 10,
                                                      "scale_type": "nps"}
        wait_until(lambda: _deliveries(ws, hook)["count"] == 2, 5, "two recorded deliveries")
        listed = _deliveries(ws, hook)
        first = listed["results"][0]
        assert first["status"] == "succeeded" and first["status_code"] == 200, first
        assert first["attempt"] == 1 and first["event_id"] in {d.headers["webhook-id"] for d in got}


@test
def failures_are_retried_with_the_same_webhook_id_and_retry_after_is_honoured():
    ws = Workspace()
    with _receiver() as rx:
        ep = rx.endpoint(answers=[500, (503, {"Retry-After": "5"}), 200])
        hook = _hook(ws, ep.url)
        ws.link(slug="retry", questions=QUESTIONS)
        ws.complete("retry", {"why": "x"})
        got = ep.wait(3, 20)
        assert len(got) == 3, f"{len(got)} attempts"
        assert len({d.headers["webhook-id"] for d in got}) == 1
        # 5 s scaled by 0.01 after the 500; after the 503, the asked 5 s rather than the
        # schedule's 5 min scaled by 0.01 (3 s).
        assert got[2].at - got[1].at >= 4.9, got[2].at - got[1].at
        assert got[1].at - got[0].at < 1.5
        # Each attempt signs afresh, with its own timestamp.
        assert all(signature_ok(hook["secret"], d) for d in got)
        wait_until(lambda: _deliveries(ws, hook)["count"] == 3, 5, "three recorded attempts")
        listed = _deliveries(ws, hook)["results"]
        assert [(d["attempt"], d["status"], d["status_code"]) for d in reversed(listed)] == [
            (1, "failed", 500), (2, "failed", 503), (3, "succeeded", 200)]
        assert listed[2]["next_attempt_at"] is not None and listed[0]["next_attempt_at"] is None


@test
def a_redirect_is_a_failure_and_410_disables_the_webhook():
    ws = Workspace()
    with _receiver() as rx:
        moved = rx.endpoint(answers=[(302, {"Location": "https://127.0.0.1:1/elsewhere"})])
        gone = rx.endpoint(answers=[410])
        h_moved, h_gone = _hook(ws, moved.url), _hook(ws, gone.url)
        ws.link(slug="gone", questions=QUESTIONS)
        ws.complete("gone", {"why": "x"})
        assert len(moved.wait(2, 10)) == 2  # the 302 was retried, never followed
        gone.wait(1, 10)
        wait_until(lambda: not expect(ws.call("GET", f"workspaces/{ws.uuid}/webhooks/{h_gone['uuid']}/"),
                                      200)["enabled"], 5, "webhook disabled")
        again = ws.complete("gone", {"why": "again"})
        assert moved.wait(1, 10, _about(again)), "the enabled webhook did not get the second event"
        time.sleep(0.5)
        assert len(gone.deliveries) == 1, "a disabled webhook got another event"
        assert expect(ws.call("GET", f"workspaces/{ws.uuid}/webhooks/{h_moved['uuid']}/"), 200)["enabled"]


@test
def sends_in_flight_when_a_webhook_is_disabled_are_dropped_not_kept_for_ever():
    ws = Workspace()
    with _receiver() as rx:
        # Five sends arrive together; the first is answered 410, the others 500 (which alone
        # would be retried).
        gone = rx.endpoint(answers=[410, 500, 500, 500, 500], delay=0.3)
        hook = _hook(ws, gone.url)
        ws.link(slug="inflight", questions=QUESTIONS)
        for i in range(5):
            ws.complete("inflight", {"why": f"n{i}"})
        gone.wait(5, 10)
        wait_until(lambda: _queued(hook) == 0, 10, "no send left queued for the disabled webhook")
        assert not expect(ws.call("GET", f"workspaces/{ws.uuid}/webhooks/{hook['uuid']}/"), 200)["enabled"]
        time.sleep(0.5)
        assert _queued(hook) == 0 and len(gone.deliveries) == 5


@test
def a_disabled_webhook_gets_only_the_sends_asked_for():
    ws = Workspace()
    with _receiver() as rx:
        off, on = rx.endpoint(), rx.endpoint()
        h_off = _hook(ws, off.url, enabled=False)
        assert h_off["enabled"] is False
        _hook(ws, on.url)
        ws.link(slug="off", questions=QUESTIONS)
        rec = ws.complete("off", {"why": "x"})
        assert on.wait(1, 10, _about(rec))
        time.sleep(0.5)
        assert off.deliveries == [] and _queued(h_off) == 0, "a disabled webhook got an event"
        # A test event and a redelivery are asked for: they are sent all the same.
        base = f"workspaces/{ws.uuid}/webhooks/{h_off['uuid']}/"
        t = expect(ws.call("POST", f"{base}test/"), 202)
        sample = off.wait(1, 10)
        assert sample and sample[0].headers["webhook-id"] == t["event_id"], "the test event was not sent"
        wait_until(lambda: _deliveries(ws, h_off)["count"] == 1, 5, "the test delivery listed")
        delivery = _deliveries(ws, h_off)["results"][0]
        expect(ws.call("POST", f"{base}deliveries/{delivery['uuid']}/redeliver/"), 202)
        again = off.wait(2, 10)
        assert len(again) == 2 and again[1].headers["webhook-id"] == t["event_id"]
        wait_until(lambda: _queued(h_off) == 0, 5, "nothing left queued")


@test
def a_webhook_at_its_limit_with_a_backlog_leaves_the_dispatcher_idle():
    """Sends of a hung receiver that are due but wait for one of its slots do not make the
    dispatcher ask PostgreSQL again and again (it waits for a send of that webhook to end)."""
    ws = Workspace()

    def rounds():
        return harness.metrics(ENV["WEBHOOKS_ADMIN_URL"]).get("webhook_claim_rounds_total", 0.0)

    with _receiver() as rx:
        hung = rx.endpoint(hang=True)
        hook = _hook(ws, hung.url)
        ws.link(slug="backlog", questions=QUESTIONS)
        for i in range(45):
            ws.complete("backlog", {"why": f"n{i}"})
        # 16 sends under way (WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT), 16 more claimed behind them,
        # the rest due and waiting.
        hung.wait(16, 10)
        wait_until(lambda: _queued(hook) == 45, 5, "the backlog queued")
        before = rounds()
        time.sleep(3)
        spent = rounds() - before
        print(f"  {spent:.0f} claim rounds in 3 s beside a full webhook with a backlog")
        assert spent <= 30, f"{spent} claim rounds in 3 s: the dispatcher spins"
        expect(ws.call("DELETE", f"workspaces/{ws.uuid}/webhooks/{hook['uuid']}/"), 200)


@test
def a_dispatcher_with_every_slot_taken_sleeps_though_a_claim_is_wanted():
    """With all its sends under way (WEBHOOK_MAX_IN_FLIGHT, to a receiver that never answers),
    a dispatcher asked to claim (sends queued elsewhere, its fallback poll) waits for a send
    to end instead of going round and round: it once span until one timed out."""
    ws = Workspace()
    with _receiver() as rx:
        hung = rx.endpoint(hang=True)
        hook = _hook(ws, hung.url)
        stack("stop-service", "webhooks")
        try:
            with ExtraProcess("webhooks", log_name="webhooks-narrow", WEBHOOK_MAX_IN_FLIGHT="2") as narrow:
                ws.link(slug="narrow", questions=QUESTIONS)
                for i in range(4):
                    ws.complete("narrow", {"why": f"n{i}"})
                hung.wait(2, 10)
                before = harness.metrics(narrow.admin_url).get("webhook_claim_rounds_total", 0.0)
                for _ in range(3):
                    sql("NOTIFY webhooks_pending")
                    time.sleep(1)
                spent = harness.metrics(narrow.admin_url).get("webhook_claim_rounds_total", 0.0) - before
                print(f"  {spent:.0f} claim rounds in 3 s with every slot taken")
                assert spent <= 30, f"{spent} claim rounds in 3 s: the dispatcher spins"
                sql(f"DELETE FROM webhooks.webhooks WHERE uuid = '{hook['uuid']}'")
        finally:
            stack("start-service", "webhooks")
            wait_until(webhooks_ready, 20, "webhooks back")


@test
def deleting_a_webhook_while_its_send_is_recorded_does_not_fail():
    """The recorder deletes a finished send and then records its delivery (which locks the
    webhook); deleting the webhook locks it and then its sends. Caught between the two, the
    delete was PostgreSQL's deadlock victim and answered 500; it is tried again."""
    ws = Workspace()
    with _receiver() as rx:
        hook = _hook(ws, rx.endpoint().url)
        event = str(uuid.uuid4())
        sql(f"INSERT INTO webhooks.events (event_id, type, workspace_uuid, payload) "
            f"VALUES ('{event}', 'response.submitted', '{ws.uuid}', '{{}}')")
        send = sql(f"INSERT INTO webhooks.pending (webhook_uuid, event_id, due_at) VALUES "
                   f"('{hook['uuid']}', '{event}', now() + interval '1 hour') RETURNING id")[0][0]
        recorder = subprocess.Popen(["psql", ENV["DATABASE_URL"], "-X", "-q", "-v", "ON_ERROR_STOP=1"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True)
        recorder.stdin.write(f"BEGIN; DELETE FROM webhooks.pending WHERE id = {send};\n")
        recorder.stdin.flush()
        time.sleep(0.5)
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            deleted = pool.submit(ws.call, "DELETE", f"workspaces/{ws.uuid}/webhooks/{hook['uuid']}/")
            # The delete waits for the send's row before the recorder asks for the webhook's, so
            # that its deadlock check comes first and it is the one PostgreSQL fails (after a
            # fixed half second, a slow delete once left the recorder to be failed instead).
            wait_until(lambda: sql("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type"
                                   " = 'Lock' AND query LIKE 'DELETE FROM webhooks.webhooks%'") != [["0"]],
                       10, "the delete waiting for the send's row")
            recorder.stdin.write(f"SELECT 1 FROM webhooks.webhooks WHERE uuid = '{hook['uuid']}' FOR KEY SHARE;"
                                 " COMMIT;\n")
            out, _ = recorder.communicate(timeout=30)
            assert recorder.returncode == 0, out
            expect(deleted.result(timeout=30), 200)
    assert sql(f"SELECT count(*) FROM webhooks.webhooks WHERE uuid = '{hook['uuid']}'") == [["0"]]


@test
def events_no_webhook_wants_are_fanned_out_without_claiming():
    """Each notification of the outbox makes a round that fans its events out; a round claims
    only when sends may be due (docs/architecture.md "Webhooks"): for events of a workspace
    with no webhook, rounds at load asked PostgreSQL twice more for nothing."""
    ws = Workspace()
    ws.link(slug="unwatched", questions=QUESTIONS)

    def statements(name):
        return _metric(ENV["WEBHOOKS_ADMIN_URL"],
                       f'webhook_statement_duration_seconds_count{{statement="{name}"}}')

    fan_outs, claims = statements("fan_out"), statements("claim")
    for i in range(40):
        ws.complete("unwatched", {"why": f"n{i}"})
        time.sleep(0.01)  # a notification, and a round, for each
    wait_until(lambda: int(sql(f"SELECT count(*) FROM responses.outbox_events "
                               f"WHERE workspace_uuid = '{ws.uuid}'")[0][0]) == 0, 5, "the outbox emptied")
    fan_outs, claims = statements("fan_out") - fan_outs, statements("claim") - claims
    print(f"  {fan_outs:.0f} fan-outs, {claims:.0f} claims for 40 events no webhook wants")
    assert fan_outs >= 20 and claims * 2 < fan_outs, (fan_outs, claims)


@test
def at_load_fan_outs_take_the_events_of_several_batches():
    """Notifications come at every writer batch; fan-outs begin at least 25 ms apart
    (kFanOutGap, dispatcher.cc), so that at load one statement takes several batches' events
    rather than each paying its planning."""
    ws = Workspace()
    ws.link(slug="busy", questions=QUESTIONS)
    fan_outs_series = 'webhook_statement_duration_seconds_count{statement="fan_out"}'
    fan_outs = _metric(ENV["WEBHOOKS_ADMIN_URL"], fan_outs_series)
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        list(pool.map(lambda i: ws.complete("busy", {"why": f"n{i}"}), range(800)))
    wait_until(lambda: int(sql(f"SELECT count(*) FROM responses.outbox_events "
                               f"WHERE workspace_uuid = '{ws.uuid}'")[0][0]) == 0, 5, "the outbox emptied")
    elapsed = time.monotonic() - started
    fan_outs = _metric(ENV["WEBHOOKS_ADMIN_URL"], fan_outs_series) - fan_outs
    batches = sql(f"SELECT count(DISTINCT xmin::text) FROM responses.responses WHERE workspace_uuid = '{ws.uuid}'")
    print(f"  {fan_outs:.0f} fan-outs in {elapsed:.1f} s for 800 events written in {batches[0][0]} batches")
    assert fan_outs <= elapsed * 40 + 5, (fan_outs, elapsed)


@test
def redeliver_sends_the_same_event_again_and_test_sends_a_marked_sample():
    ws = Workspace()
    with _receiver() as rx:
        ep = rx.endpoint()
        hook = _hook(ws, ep.url)
        ws.link(slug="again", questions=QUESTIONS)
        ws.complete("again", {"why": "x"})
        first = ep.wait(1, 10)[0]
        wait_until(lambda: _deliveries(ws, hook)["count"] == 1, 5, "recorded delivery")
        delivery = _deliveries(ws, hook)["results"][0]
        base = f"workspaces/{ws.uuid}/webhooks/{hook['uuid']}/"
        r = expect(ws.call("POST", f"{base}deliveries/{delivery['uuid']}/redeliver/"), 202)
        assert r["event_id"] == first.headers["webhook-id"]
        again = ep.wait(2, 10)[1]
        assert again.headers["webhook-id"] == first.headers["webhook-id"] and again.body == first.body
        wait_until(lambda: _deliveries(ws, hook)["results"][0]["redelivery"], 5, "redelivery listed")

        t = expect(ws.call("POST", f"{base}test/"), 202)
        sample = ep.wait(1, 10, lambda d: d.json.get("test") is True)
        assert sample and sample[0].headers["webhook-id"] == t["event_id"]
        body = sample[0].json
        assert body["type"] == "response.submitted" and body["data"]["workspace_uuid"] == ws.uuid
        assert signature_ok(hook["secret"], sample[0])
        expect(ws.call("POST", f"{base}deliveries/{hook['uuid']}/redeliver/"), 404, None)


@test
def on_finished_webhooks_follow_their_links_even_when_the_webhooks_service_was_down():
    ws = Workspace()
    with _receiver() as rx:
        ep = rx.endpoint()
        link = ws.link(slug="auto", questions=QUESTIONS,
                       on_finished={"webhook_url": ep.url, "webhook_secret": "s3cret"})
        hooks = expect(ws.call("GET", f"workspaces/{ws.uuid}/webhooks/"), 200)["results"]
        assert [(h["link_uuid"], h["events"]) for h in hooks] == [(link["uuid"], SUBMITTED)]
        ws.complete("auto", {"why": "x"})
        d = ep.wait(1, 10)[0]
        assert signature_ok("s3cret", d)
        # Another link's submissions do not reach a link-scoped webhook.
        ws.link(slug="other", questions=QUESTIONS)
        ws.complete("other", {"why": "x"})
        time.sleep(0.5)
        assert len(ep.deliveries) == 1

        stack("stop-service", "webhooks")
        try:
            late = ws.link(slug="late", questions=QUESTIONS, on_finished={"webhook_url": ep.url})
            expect(ws.call("DELETE", f"links/{link['uuid']}/"), 200)
        finally:
            stack("start-service", "webhooks")
        # The links service tells the webhooks service what it missed within its 5 s timer.
        wait_until(lambda: [h["link_uuid"] for h in expect(
            ws.call("GET", f"workspaces/{ws.uuid}/webhooks/"), 200)["results"]] == [late["uuid"]],
            20, "automatic webhooks after the webhooks service came back")


@test
def an_event_waits_for_its_links_on_finished_webhook_to_exist():
    """A submission into a link whose on_finished webhook the links service could not tell the
    webhooks service about yet is delivered to it once it has, not dropped by a dispatcher
    that fans the event out first."""
    ws = Workspace()
    with _receiver() as rx:
        ep = rx.endpoint()
        stack("stop-service", "webhooks")
        try:
            ws.link(slug="early", questions=QUESTIONS, on_finished={"webhook_url": ep.url})
            rec = ws.complete("early", {"why": "before the webhook existed"})
        finally:
            stack("start-service", "webhooks")
        got = ep.wait(1, 20, _about(rec))
        assert got, "the event of a submission made before its link's webhook existed was lost"


def _strict_gateway(webhooks):
    return harness.ExtraProcess("gateway", log_name="gateway-strict",
                                WEBHOOKS_ADDR=f"127.0.0.1:{webhooks.port}")


SSRF_HOSTS = ["127.0.0.1", "[::1]", "10.0.0.1", "100.64.0.1", "169.254.169.254", "2130706433",
              "0x7f000001", "017700000001", "[::ffff:127.0.0.1]"]


@test
def private_targets_in_every_spelling_are_refused_at_registration():
    ws = Workspace()
    with ExtraProcess("webhooks", log_name="webhooks-strict", WEBHOOK_ALLOW_PRIVATE="false",
                      WEBHOOK_DISPATCHER="false") as strict, \
            ExtraProcess("links", log_name="links-strict", WEBHOOK_ALLOW_PRIVATE="false",
                         WEBHOOKS_ADDR=f"127.0.0.1:{strict.port}") as links, \
            ExtraProcess("gateway", log_name="gateway-strict", WEBHOOKS_ADDR=f"127.0.0.1:{strict.port}",
                         LINKS_ADDR=f"127.0.0.1:{links.port}") as gw:
        def post(path, body):
            return harness.request("POST", f"/v1/{path}", key=ws.key, json=body,
                                   gateway=f"127.0.0.1:{gw.port}")

        for host in SSRF_HOSTS + ["localhost", "LOCALHOST.", "api.localhost", "metadata.google.internal"]:
            url = f"https://{host}:8443/hook"
            expect(post(f"workspaces/{ws.uuid}/webhooks/", {"url": url, "events": SUBMITTED}), 400,
                   "INVALID_WEBHOOK_URL")
            r = expect(post("links/", {"name": "x", "on_finished": {"webhook_url": url}}), 400,
                       "INVALID_WEBHOOK_URL")
            assert "on_finished.webhook_url" in r["error"]["details"], r
        expect(post(f"workspaces/{ws.uuid}/webhooks/", {"url": "https://8.8.8.8/hook", "events": SUBMITTED}),
               201)
    assert expect(ws.call("GET", f"workspaces/{ws.uuid}/webhooks/"), 200)["count"] == 1
    assert expect(ws.call("GET", "links/"), 200)["count"] == 0


def _hosts(line):
    """Puts `line` at the end of /etc/hosts (None: takes it away again)."""
    with open("/etc/hosts") as f:
        kept = [x for x in f.read().splitlines() if "rebind.feedback.test" not in x]
    with open("/etc/hosts", "w") as f:
        f.write("\n".join(kept + ([line] if line else [])) + "\n")


@test
def a_name_that_resolves_to_loopback_after_registration_is_refused_at_connect_time():
    ws = Workspace()
    with _receiver() as rx:
        ep = rx.endpoint()
        url = f"https://rebind.feedback.test:{rx.port}/hook/{ep.id}"
        _hosts("8.8.8.8 rebind.feedback.test")
        try:
            stack("stop-service", "webhooks")  # its dispatcher may reach private addresses
            with ExtraProcess("webhooks", log_name="webhooks-strict",
                              WEBHOOK_ALLOW_PRIVATE="false") as strict, _strict_gateway(strict) as gw:
                hook = expect(harness.request(
                    "POST", f"/v1/workspaces/{ws.uuid}/webhooks/", key=ws.key,
                    json={"url": url, "events": SUBMITTED}, gateway=f"127.0.0.1:{gw.port}"), 201)
                _hosts("127.0.0.1 rebind.feedback.test")
                ws.link(slug="rebind", questions=QUESTIONS)
                ws.complete("rebind", {"why": "x"})

                def refused():
                    rows = expect(harness.request(
                        "GET", f"/v1/workspaces/{ws.uuid}/webhooks/{hook['uuid']}/deliveries/",
                        key=ws.key, gateway=f"127.0.0.1:{gw.port}"), 200)["results"]
                    return rows and rows[-1]["error"] == "refused_address"
                wait_until(refused, 10, "a refused attempt")
                assert ep.deliveries == [], "the dispatcher connected to loopback"
                sql(f"DELETE FROM webhooks.webhooks WHERE uuid = '{hook['uuid']}'")
        finally:
            _hosts(None)
            stack("start-service", "webhooks")
            wait_until(lambda: harness.urllib.request.urlopen(f"{ENV['WEBHOOKS_ADMIN_URL']}readyz",
                                                              timeout=2).status == 200,
                       20, "webhooks back")


@test
def a_receiver_that_never_answers_does_not_delay_a_healthy_one():
    ws = Workspace()
    with _receiver() as rx:
        hung, healthy = rx.endpoint(hang=True), rx.endpoint()
        _hook(ws, hung.url)
        _hook(ws, healthy.url)
        ws.link(slug="hol", questions=QUESTIONS)
        delays = []
        for i in range(40):
            sent = time.time()
            rec = ws.complete("hol", {"why": f"n{i}"})
            got = healthy.wait(i + 1, 5)
            arrived = [d for d in got if d.json["data"]["response"]["uuid"] == rec["uuid"]]
            assert arrived, f"submission {i} not delivered to the healthy receiver"
            delays.append(arrived[0].at - sent)
        assert len(hung.deliveries) >= 8, "the hung receiver was not being tried"
        assert max(delays) < 1.0, f"healthy deliveries delayed up to {max(delays):.3f}s"
        print(f"  healthy receiver: p50 {sorted(delays)[len(delays) // 2] * 1000:.1f} ms, "
              f"max {max(delays) * 1000:.1f} ms beside a hung one")
        for h in expect(ws.call("GET", f"workspaces/{ws.uuid}/webhooks/"), 200)["results"]:
            expect(ws.call("DELETE", f"workspaces/{ws.uuid}/webhooks/{h['uuid']}/"), 200)


@test
def dispatch_statements_on_postgresql_prune_in_order_and_cost_what_they_take():
    """The [.pg] cases of webhooks_tests: fan-out sends each event to the webhooks that want it
    (a one-shot row as its two events); pruning goes oldest first past events still in use;
    every dispatcher statement reads as many pages for a backlog of 100,000 as for one of
    10,000 (dispatch_statements_cost_test.cc)."""
    stack_unit_tests("services/webhooks/webhooks_tests", "[.pg]")


def _metric(admin_url, series):
    """The value of one series on a process's /metrics; None while it does not answer."""
    try:
        return harness.metrics(admin_url).get(series, 0.0)
    except OSError:
        return None


@test
def the_dispatcher_reports_its_outbox_lag_and_delivery_attempts():
    """webhook_outbox_lag_seconds is the age of the oldest event waiting in the outbox (here one
    written while no dispatcher ran), webhook_attempts_total counts attempts by outcome."""
    ws = Workspace()
    with _receiver() as rx:
        endpoint = rx.endpoint()
        _hook(ws, endpoint.url)
        ws.link(slug="lag", questions=QUESTIONS)
        stack("stop-service", "webhooks")
        try:
            ws.complete("lag", {"why": "it waits in the outbox"})
            time.sleep(2.5)
            # A dispatcher of its own: the first round reads the lag; it is kept for a second.
            with ExtraProcess("webhooks", "webhooks-lag") as dispatcher:
                lags = []
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline and max(lags, default=0) < 2.5:
                    lag = _metric(dispatcher.admin_url, "webhook_outbox_lag_seconds")
                    if lag is not None:
                        lags.append(lag)
                    time.sleep(0.05)
                assert max(lags, default=0) >= 2.5, f"the lag read back: {sorted(set(lags))}"
                assert endpoint.wait(1, 10), "the event was not delivered"
                wait_until(lambda: _metric(dispatcher.admin_url,
                                           'webhook_attempts_total{outcome="succeeded"}') >= 1, 5,
                           "the attempt counted")
                wait_until(lambda: _metric(dispatcher.admin_url, "webhook_outbox_lag_seconds") == 0,
                           5, "the lag back to 0")
        finally:
            stack("start-service", "webhooks")
