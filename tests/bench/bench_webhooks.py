"""The webhook rows of scripts/bench, on a stack of their own (.run/bench-webhooks: W8 stops and
restarts its dispatcher and analyses its tables):

W8 bursts: keeping up after a backlog. The dispatcher is stopped while W4-speed submissions
pile up (into a link whose workspace has no webhook, as W4's), then started: the catch-up rate.
With the outbox empty again its statistics are taken (as autovacuum does where the dispatcher
keeps it empty) and the dispatcher restarted; then three bursts at W4 speed, 8 s each, 8 s
apart, half of the submissions into a workspace with a webhook on an HTTPS receiver here: the
largest webhook_outbox_lag_seconds seen meanwhile, and the time from the last burst's end until
every event that webhook wants has arrived.

W6 right after, on the same stack: the time from a submission to its delivery while
W6_RATE submissions/s flow."""
import json
import os
import shlex
import ssl
import subprocess
import threading
import time
import urllib.request

from bench_processes import stack_env, workspace

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
STACK_DIR = os.path.join(ROOT, ".run", "bench-webhooks")
TARGETS = {"W8_catch_up_events_per_s": 50000.0, "W8_lag_s": 5.0, "W8_delivered_s": 60.0,
           "W6_p50_ms": 50.0, "W6_p99_ms": 250.0}
W6_RATE = 1000  # submissions per second while W6 measures
CATCH_UP_SECONDS = 12
BURSTS, BURST_SECONDS, BURST_GAP_SECONDS = 3, 8, 8
DELIVERY_WAIT_SECONDS = 120  # the longest W8 waits for the last deliveries


def _stack(*args, **settings):
    subprocess.run([os.path.join(ROOT, "scripts", "stack"), *args], check=True,
                   stdout=subprocess.DEVNULL, env=dict(os.environ, STACK_DIR=STACK_DIR, **settings))


def _env():
    return stack_env(STACK_DIR)


def _sql(env, query):
    out = subprocess.run(["psql", env["DATABASE_URL"], "-XtAc", query], capture_output=True,
                         text=True, check=True)
    return out.stdout.strip()


def _metric(env, series):
    with urllib.request.urlopen(env["WEBHOOKS_ADMIN_URL"] + "metrics", timeout=5) as r:
        for line in r.read().decode().splitlines():
            if line.startswith(series + " "):
                return float(line.rsplit(" ", 1)[1])
    return None


class StackGateway:
    """The stack's own gateway, as the bench's scenarios address one."""

    def __init__(self, env):
        self.base = "http://" + env["GATEWAY_ADDR"]
        with open(os.path.join(STACK_DIR, "pids", "gateway.pid")) as f:
            self.pid = int(f.read().strip())

    def url(self, path):
        return self.base + path


class Sink:
    """webhook_sink.js: an HTTPS receiver with the stack's webhook CA's certificate."""

    def __init__(self, ca_dir):
        self.proc = subprocess.Popen(["node", os.path.join(HERE, "webhook_sink.js"), ca_dir],
                                     stdout=subprocess.PIPE, text=True)
        self.port = int(self.proc.stdout.readline())
        self.url = f"https://127.0.0.1:{self.port}/hook"
        self.tls = ssl.create_default_context(cafile=os.path.join(ca_dir, "ca.pem"))

    def stats(self):
        """{count, last_ms, duplicates} of the response.submitted deliveries so far."""
        with urllib.request.urlopen(f"https://127.0.0.1:{self.port}/stats", context=self.tls,
                                    timeout=5) as r:
            return json.loads(r.read())

    def finish(self):
        """Stops it; {count, p50_ms, p99_ms, max_ms, duplicates} of every delivery it had."""
        self.proc.terminate()
        out = self.proc.communicate(timeout=30)[0].strip().splitlines()
        return json.loads(out[-1])


def _outbox_events(env):
    """Events waiting in the outbox: a one-shot row holds two."""
    return int(_sql(env, "SELECT count(*) + count(started_event_id) FROM responses.outbox_events"))


def _submitted_into(env, workspace_uuid):
    return int(_sql(env, "SELECT count(*) FROM responses.responses"
                         f" WHERE workspace_uuid = '{workspace_uuid}' AND submitted_at IS NOT NULL"))


def _wait_delivered(sink, expected, timeout=DELIVERY_WAIT_SECONDS):
    """The sink's stats once it has `expected` deliveries, or when `timeout` has passed."""
    deadline = time.monotonic() + timeout
    stats = sink.stats()
    while stats["count"] < expected and time.monotonic() < deadline:
        time.sleep(0.2)
        stats = sink.stats()
    return stats


class LagWatch:
    """Reads webhook_outbox_lag_seconds every 200 ms in a thread (the dispatcher reads it at
    most once a second)."""

    def __init__(self, env):
        self.env, self.samples, self.largest = env, 0, 0.0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stopping.wait(0.2):
            try:
                lag = _metric(self.env, "webhook_outbox_lag_seconds")
            except OSError:
                continue
            if lag is not None:
                self.samples += 1
                self.largest = max(self.largest, lag)

    def stop(self):
        self.stopping.set()
        self.thread.join()


def _catch_up(env, tools, targets):
    """The dispatcher stopped while submissions pile up, then started: events/s from the first
    taken to the last (its webhook_fan_out_events_total read every 20 ms)."""
    _stack("stop-service", "webhooks")
    print(f"bench: W8 catch-up: {CATCH_UP_SECONDS} s of submissions with the dispatcher stopped ...",
          flush=True)
    piled = tools.wrk(targets["url"], "intake_submit.lua", None, duration=f"{CATCH_UP_SECONDS}s",
                      extra_env={"BENCH_TARGETS": targets["quiet"]})
    backlog = _outbox_events(env)
    readings = []  # (when, events fanned out so far) from the restarted dispatcher
    watching = threading.Event()

    def watch():
        deadline = time.monotonic() + 300
        while not watching.is_set() and time.monotonic() < deadline:
            try:
                taken = _metric(env, "webhook_fan_out_events_total") or 0
            except OSError:  # not listening yet
                taken = 0
            readings.append((time.monotonic(), taken))
            if taken >= backlog:
                return
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    _stack("start-service", "webhooks")
    watcher.join()
    watching.set()
    # From the last reading before any event was taken to the first that saw them all.
    before = max((t for t, n in readings if n == 0), default=None)
    last = next((t for t, n in readings if n >= backlog), None)
    rate = backlog / (last - before) if before is not None and last is not None and last > before else 0.0
    print(f"bench: W8 catch-up: {backlog:,} events of {piled['requests']:,} submissions fanned out "
          f"at {rate:,.0f} events/s", flush=True)
    return {"submissions": piled["requests"], "errors": piled["errors"], "events": backlog,
            "events_per_second": rate}


def _bursts(env, tools, targets, sink, hooked):
    """Three bursts at full speed with the dispatcher running, after its statistics were taken
    on an empty outbox and it was restarted."""
    for table in ("responses.outbox_events", "webhooks.pending", "webhooks.events"):
        _sql(env, f"ANALYZE {table}")
    _stack("stop-service", "webhooks")
    _stack("start-service", "webhooks")
    watch = LagWatch(env)
    submissions = errors = 0
    try:
        for burst in range(BURSTS):
            if burst:
                time.sleep(BURST_GAP_SECONDS)
            print(f"bench: W8 burst {burst + 1} of {BURSTS}: {BURST_SECONDS} s at full speed ...",
                  flush=True)
            r = tools.wrk(targets["url"], "intake_submit.lua", None, duration=f"{BURST_SECONDS}s",
                          extra_env={"BENCH_TARGETS": targets["both"]})
            submissions += r["requests"]
            errors += r["errors"]
        ended = time.time()
        expected = _submitted_into(env, hooked)
        stats = _wait_delivered(sink, expected)
    finally:
        watch.stop()
    done = stats["count"] >= expected > 0
    delivered_s = stats["last_ms"] / 1000 - ended if done else None
    print(f"bench: W8 bursts: {submissions:,} submissions, {stats['count']:,} of {expected:,} "
          f"deliveries, largest outbox lag {watch.largest:.2f} s ({watch.samples} readings), "
          f"all delivered {'%.1f s after the last burst' % delivered_s if done else 'NOT within %d s' % DELIVERY_WAIT_SECONDS}",
          flush=True)
    return {"submissions": submissions, "errors": errors, "deliveries_expected": expected,
            "deliveries": stats["count"], "duplicates": stats["duplicates"],
            "largest_lag_s": watch.largest, "lag_readings": watch.samples,
            "delivered_after_last_burst_s": delivered_s}


def webhook_delivery(env, tools, gateway, link_body, ca_dir):
    """W6: the time from a submission's event (written with it) to its delivery at an HTTPS
    receiver on this machine, while W6_RATE submissions/s flow."""
    ctl = shlex.split(env["FEEDBACKCTL"])
    base = env["BASE_URL"]
    started = time.monotonic()
    while _outbox_events(env) > 0 and time.monotonic() - started < 300:
        time.sleep(0.5)
    ws = workspace(ctl, "bench-w6")
    sink = Sink(ca_dir)
    try:
        tools.http("POST", f"{base}workspaces/{ws['workspace_uuid']}/webhooks/", ws["api_key"],
                   {"url": sink.url, "events": ["response.submitted"]})
        tools.http("POST", base + "links/", ws["api_key"], dict(link_body, slug="w6"))
        pace = {"BENCH_HOST": ws["host"], "BENCH_RATE": str(W6_RATE), "BENCH_THREADS": tools.threads}
        r = tools.scenario(f"W6 submits at {W6_RATE}/s", gateway.url("/i/w6/submit/"),
                           "intake_submit.lua", None, connections=64, extra_env=pace,
                           gateway=gateway, stack_dir=STACK_DIR)
        _wait_delivered(sink, _submitted_into(env, ws["workspace_uuid"]), timeout=30)
    finally:
        delivered = sink.finish()
    delivered["submitted"] = _submitted_into(env, ws["workspace_uuid"])
    print(f"bench: W6 {delivered['count']} deliveries of {delivered['submitted']} submissions "
          f"(warm-up included), p50 {delivered['p50_ms']:.1f} ms, p99 {delivered['p99_ms']:.1f} ms",
          flush=True)
    return r, delivered


def rows(tools, link_body, ca_dir):
    """W8 and W6 on a fresh stack of their own; returns (W6's scenario row, figures)."""
    print("bench: W8 and W6 on a stack of their own ...", flush=True)
    _stack("purge")
    settings = {"INTAKE_RATE_LIMIT": "0", "WEBHOOK_ALLOW_PRIVATE": "true",
                "WEBHOOK_CA_BUNDLE": os.path.join(ca_dir, "ca.pem")}
    _stack("up", **settings)
    try:
        env = _env()
        ctl = shlex.split(env["FEEDBACKCTL"])
        base = env["BASE_URL"]
        hooked, quiet = workspace(ctl, "bench-w8-hooked"), workspace(ctl, "bench-w8-quiet")
        for ws in (hooked, quiet):
            tools.http("POST", base + "links/", ws["api_key"], dict(link_body, slug="w8"))
        gateway = StackGateway(env)
        targets = {"url": gateway.url("/i/w8/submit/"), "quiet": f"{quiet['host']} /i/w8/submit/",
                   "both": f"{hooked['host']} /i/w8/submit/,{quiet['host']} /i/w8/submit/"}
        sink = Sink(ca_dir)
        try:
            hooks = f"{base}workspaces/{hooked['workspace_uuid']}/webhooks/"
            _, made = tools.http("POST", hooks, hooked["api_key"],
                                 {"url": sink.url, "events": ["response.submitted"]})
            catch_up = _catch_up(env, tools, targets)
            bursts = _bursts(env, tools, targets, sink, hooked["workspace_uuid"])
            # Nothing of W8's is retried while W6 measures.
            tools.http("DELETE", f"{hooks}{json.loads(made)['uuid']}/", hooked["api_key"])
        finally:
            sink.finish()
        w6 = webhook_delivery(env, tools, gateway, link_body, ca_dir)
    finally:
        _stack("down")
    return w6[0], {"catch_up": catch_up, "bursts": bursts, "w6": w6[1]}


def checks(figures):
    """Targets met, each with the samples it rests on: a figure measured on nothing is not met."""
    catch_up, bursts, w6 = figures["catch_up"], figures["bursts"], figures["w6"]
    delivered = bursts["delivered_after_last_burst_s"]
    return {
        f"W8 catch-up >= 50,000 events/s ({catch_up['events_per_second']:,.0f} of {catch_up['events']:,})":
            catch_up["events"] > 0 and catch_up["events_per_second"] >= TARGETS["W8_catch_up_events_per_s"],
        f"W8 outbox lag <= 5 s during the bursts ({bursts['largest_lag_s']:.2f} s, {bursts['lag_readings']} readings)":
            bursts["lag_readings"] > 0 and bursts["largest_lag_s"] <= TARGETS["W8_lag_s"],
        f"W8 every delivery within 60 s of the last burst ({bursts['deliveries']:,} of {bursts['deliveries_expected']:,})":
            delivered is not None and delivered <= TARGETS["W8_delivered_s"],
        f"W8 no submission refused ({catch_up['errors'] + bursts['errors']})":
            catch_up["errors"] + bursts["errors"] == 0 and bursts["submissions"] > 0,
        f"W6 delivery p50 < 50 ms ({w6['p50_ms']:.1f} ms of {w6['count']})":
            w6["count"] > 0 and w6["p50_ms"] < TARGETS["W6_p50_ms"],
        f"W6 delivery p99 < 250 ms ({w6['p99_ms']:.1f} ms of {w6['count']})":
            w6["count"] > 0 and w6["p99_ms"] < TARGETS["W6_p99_ms"],
        f"W6 every submission delivered ({w6['count']} of {w6['submitted']})":
            w6["submitted"] > 0 and w6["count"] >= w6["submitted"],
    }


def print_figures(figures):
    catch_up, bursts, w6 = figures["catch_up"], figures["bursts"], figures["w6"]
    delivered = bursts["delivered_after_last_burst_s"]
    print(f"\nW8 bursts (a stack of its own):"
          f"\n  catch-up after the dispatcher was stopped: {catch_up['events']:,} events fanned out at "
          f"{catch_up['events_per_second']:,.0f} events/s"
          f"\n  {BURSTS} bursts of {BURST_SECONDS} s at full speed, {BURST_GAP_SECONDS} s apart, statistics "
          f"taken on an empty outbox: {bursts['submissions']:,} submissions, largest outbox lag "
          f"{bursts['largest_lag_s']:.2f} s"
          f"\n  every delivery ({bursts['deliveries']:,} of {bursts['deliveries_expected']:,}) "
          + (f"done {delivered:.1f} s after the last burst" if delivered is not None
             else f"NOT done within {DELIVERY_WAIT_SECONDS} s")
          + f"\nW6 right after, submission to webhook delivery at {W6_RATE}/s: p50 {w6['p50_ms']:.1f} ms, "
          f"p99 {w6['p99_ms']:.1f} ms, max {w6['max_ms']:.1f} ms ({w6['count']} deliveries, "
          f"{w6['duplicates']} duplicates)")
