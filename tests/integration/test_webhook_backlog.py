"""The dispatcher keeps up with a backlog. Where the dispatcher keeps its queues empty,
autovacuum analyses them empty; then a burst comes (a campaign email, a dispatcher back after an
outage). Here the queues' statistics are taken while they are empty (and autovacuum is held off
meanwhile, so that they stay so, as they would for the minute until its next visit), the
dispatcher restarts, and a backlog of 100,000 or more rows arrives while it runs: no fan-out or
claim statement may take a second (webhook_statement_duration_seconds, timed around each call),
and an event a webhook wants, written after the backlog, must be delivered within 30 s. Before
the fix a fan-out statement ran for minutes and nothing was delivered."""
import time
import uuid

import harness
from harness import ENV, Workspace, expect, sql, stack, test, wait_until
from test_webhooks import QUESTIONS, _hook, _receiver

BACKLOG_ROWS = 80_000  # 120,000 events: half of the rows are one-shot responses' two events
INSERTS = 4  # the backlog arrives in this many transactions, each waking the dispatcher
PENDING_SENDS = 100_000
QUEUES = ("responses.outbox_events", "webhooks.pending", "webhooks.events")


def _statements(statement):
    """(calls, calls over 1 s) of one dispatcher statement, from the stack's webhooks service."""
    m = harness.metrics(ENV["WEBHOOKS_ADMIN_URL"])
    series = f'webhook_statement_duration_seconds_%s{{statement="{statement}"%s}}'
    calls = m.get(series % ("count", ""), 0)
    return calls, calls - m.get(series % ("bucket", ',le="1"'), 0)


def _analysed_drained(table, fill, drain):
    """Leaves `table` analysed after a backlog drained: few rows in its statistics, but pages on
    disk (a VACUUM would truncate those and let the planner guess from their number). Returns the
    rows the statistics count."""
    sql(f"ALTER TABLE {table} SET (autovacuum_enabled = false)")
    sql(fill)
    sql(drain)
    sql(f"ANALYZE {table}")
    pages, tuples = map(float, sql(f"SELECT relpages, reltuples FROM pg_class WHERE oid = '{table}'::regclass")[0])
    assert pages > 0, f"{table}: no pages"
    return tuples


def _outbox_rows(count, workspace, link):
    """`count` outbox rows of a workspace without webhooks, each with a payload of a realistic
    size: responses started, and responses completed in one call (both events in one row)."""
    return ("INSERT INTO responses.outbox_events (event_id, type, started_event_id, workspace_uuid,"
            " link_uuid, response_uuid, payload) SELECT gen_random_uuid(), 'response.submitted',"
            f" CASE WHEN g % 2 = 1 THEN gen_random_uuid() END, '{workspace}', '{link}', gen_random_uuid(),"
            " '{\"type\":\"response.submitted\",\"data\":' || repeat(md5(g::text), 24) || '}'"
            f" FROM generate_series(1, {count}) g")


def _queues_reset():
    for table in QUEUES:
        sql(f"ALTER TABLE {table} RESET (autovacuum_enabled)")
        sql(f"ANALYZE {table}")


def _delivered_after_backlog(ws, endpoint, slug):
    started = time.monotonic()
    record = ws.complete(slug, {"why": "after the backlog", "score": 10})
    got = endpoint.wait(1, 30, lambda d: d.json["data"]["response"]["uuid"] == record["uuid"])
    assert got, "an event written after the backlog was not delivered within 30 s"
    return time.monotonic() - started


@test
def a_backlog_arriving_while_the_dispatcher_runs_is_fanned_out_at_once():
    ws = Workspace()
    quiet_workspace, quiet_link = uuid.uuid4(), uuid.uuid4()
    with _receiver() as rx:
        endpoint = rx.endpoint()
        _hook(ws, endpoint.url)
        ws.link(slug="after-backlog", questions=QUESTIONS)
        wait_until(lambda: sql("SELECT count(*) FROM responses.outbox_events")[0][0] == "0", 30,
                   "the outbox emptied by the dispatcher")
        stack("stop-service", "webhooks")
        try:
            counted = _analysed_drained("responses.outbox_events", _outbox_rows(2000, quiet_workspace, quiet_link),
                                        "DELETE FROM responses.outbox_events")
            assert counted == 0, f"the outbox's statistics count {counted} rows"
            stack("start-service", "webhooks")  # it plans with the statistics just taken
            for _ in range(INSERTS):
                sql(_outbox_rows(BACKLOG_ROWS // INSERTS, quiet_workspace, quiet_link))
            took = _delivered_after_backlog(ws, endpoint, "after-backlog")
            wait_until(lambda: sql("SELECT count(*) FROM responses.outbox_events")[0][0] == "0", 30,
                       "the backlog fanned out")
            calls, slow = _statements("fan_out")
            assert calls > 0 and slow == 0, f"{slow} of {calls} fan-out statements took over 1 s"
            events = harness.metrics(ENV["WEBHOOKS_ADMIN_URL"])["webhook_fan_out_events_total"]
            assert events >= BACKLOG_ROWS * 3 // 2, events
            print(f"  {events:,.0f} events ({BACKLOG_ROWS:,} rows) fanned out in {calls:.0f} statements, none over 1 s; "
                  f"the event after them delivered {took:.2f} s after its submission")
        finally:
            _queues_reset()


@test
def a_claim_beside_100000_queued_sends_reads_only_what_it_takes():
    """100,000 sends of a webhook whose receiver was down wait for their retries; a submission
    into another workspace is delivered at once, every claim under a second."""
    ws, waiting = Workspace(), Workspace()
    with _receiver() as rx:
        endpoint = rx.endpoint()
        _hook(ws, endpoint.url)
        ws.link(slug="beside-queued", questions=QUESTIONS)
        down = _hook(waiting, rx.endpoint().url)
        # Sends of the waiting webhook, retries due in an hour, each of an event kept for it.
        queue = ("WITH e AS (INSERT INTO webhooks.events (event_id, type, workspace_uuid, payload)"
                 f" SELECT gen_random_uuid(), 'response.submitted', '{waiting.uuid}',"
                 " repeat(md5(g::text), 24) FROM generate_series(1, {count}) g RETURNING event_id)"
                 " INSERT INTO webhooks.pending (webhook_uuid, event_id, attempts, due_at)"
                 f" SELECT '{down['uuid']}', event_id, 1, clock_timestamp() + interval '1 hour' FROM e")
        stack("stop-service", "webhooks")
        try:
            # The events a webhook wanted are kept for a month: that table is never empty.
            sql("ALTER TABLE webhooks.events SET (autovacuum_enabled = false)")
            sql("ANALYZE webhooks.events")
            counted = _analysed_drained("webhooks.pending", queue.format(count=2000),
                                        f"DELETE FROM webhooks.pending WHERE webhook_uuid = '{down['uuid']}'")
            assert counted < 1000, f"webhooks.pending's statistics count {counted} rows"
            stack("start-service", "webhooks")  # it plans with the statistics just taken
            sql(queue.format(count=PENDING_SENDS))
            took = _delivered_after_backlog(ws, endpoint, "beside-queued")
            calls, slow = _statements("claim")
            assert calls >= 1 and slow == 0, f"{slow} of {calls} claims took over 1 s"
            queued = int(sql(f"SELECT count(*) FROM webhooks.pending WHERE webhook_uuid = '{down['uuid']}'")[0][0])
            assert queued == PENDING_SENDS, queued
            print(f"  delivered {took:.2f} s after its submission beside {queued:,} queued sends "
                  f"({calls:.0f} claims, none over 1 s)")
        finally:
            expect(waiting.call("DELETE", f"workspaces/{waiting.uuid}/webhooks/{down['uuid']}/"), 200)
            sql(f"DELETE FROM webhooks.events WHERE workspace_uuid = '{waiting.uuid}'")
            _queues_reset()
