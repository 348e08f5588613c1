#!/usr/bin/env python3
"""Chaos under load (run by scripts/chaos, against the stack in STACK_DIR and a second webhooks
dispatcher of its own): a mixed load (load.py) runs while the faults of faults.py are injected
one after another; then the checker
proves that every acknowledged write is in PostgreSQL, every event of every acknowledged
submission reached the webhook receiver (by webhook-id), no request hung past its deadline,
every answer during an outage was a 503 with Retry-After (or a success from the fail-open
paths the contract allows), and the system answered again within 2 s of each dependency's
return. Prints one table and writes it to .run/chaos/latest.json.

python3 chaos.py [--quick] [--cert-dir DIR]"""
import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))
sys.path.insert(0, HERE)
import faults as faultlib  # noqa: E402
import harness  # noqa: E402
import webhook_receiver  # noqa: E402
from load import DEADLINE_S, Load, Target  # noqa: E402

RECOVERY_TARGET_S = 2.0
EVENTS = ("response.started", "response.submitted")
QUESTIONS = [{"prompt": "Why?", "type": "text", "field_key": "why"},
             {"prompt": "Score?", "type": "rating", "field_key": "score",
              "configuration": {"scale_type": "nps"}}]


def say(text=""):
    print(f"chaos: {text}", flush=True)


def set_up(receiver):
    ws = harness.Workspace(plan="enterprise", rate_limit=10_000_000)
    link = ws.link(name="Chaos", slug="chaos", questions=QUESTIONS)
    endpoint = receiver.endpoint()
    harness.expect(ws.call("POST", f"workspaces/{ws.uuid}/webhooks/",
                           json={"url": endpoint.url, "events": list(EVENTS)}), 201)
    target = Target(ws.key, ws.info["host"], link["uuid"], link["slug"], harness.GATEWAYS)
    return target, endpoint


class Verdict:
    """What the records say about each answer: a 503 (with Retry-After) only while a fault is
    on or within the recovery target of its end; a request cut under way only by the gateway
    that was killed as it held it; anything else that is not the success asked for, or an
    answer later than the deadline, is a violation."""

    def __init__(self, records, faults):
        self.outages = [(f.injected_at, f.returned_at + RECOVERY_TARGET_S) for f in faults]
        self.kills = [(f.gateway, f.injected_at, f.injected_at + 1.0) for f in faults if f.gateway]
        self.ok = self.degraded = self.cut = 0
        self.violations = []
        for r in records:
            self._judge(r)

    def _during_outage(self, r):
        return any(a <= r.ended and r.started <= b for a, b in self.outages)

    def _judge(self, r):
        took = r.ended - r.started
        if r.error == "timeout" or took > DEADLINE_S:
            return self.violations.append(f"{r.kind}: hung {took:.1f} s")
        retry_after = r.retry_after or ""
        if r.ok:
            self.ok += 1
        elif r.status == 503 and retry_after.isdigit() and int(retry_after) >= 1 and self._during_outage(r):
            self.degraded += 1
        elif (r.error or "").startswith("cut") and any(
                g == r.gateway and a <= r.ended and r.started <= b for g, a, b in self.kills):
            self.cut += 1
        else:
            what = r.error or f"{r.status} {(r.body or b'')[:160]!r} (Retry-After {r.retry_after})"
            self.violations.append(f"{r.kind}: {what}")


def recovery(fault, records, endpoint):
    """Seconds from the dependency's return until every kind of request, and a delivery, had
    succeeded again (through the killed gateway itself, when the fault killed one)."""
    worst = 0.0
    for kind in Load.KINDS:
        firsts = [r.ended for r in records if r.kind == kind and r.ok and r.ended >= fault.returned_at
                  and (fault.gateway is None or r.gateway == fault.gateway)]
        worst = max(worst, (min(firsts) if firsts else float("inf")) - fault.returned_at)
    delivered = [d.at for d in list(endpoint.deliveries) if d.answered and d.at >= fault.returned_wall]
    return max(worst, (min(delivered) if delivered else float("inf")) - fault.returned_wall)


def delivered_events(endpoint):
    """{(response uuid, event type): {webhook-id, ...}} of deliveries answered with a 2xx, and
    every webhook-id seen for each, answered or not."""
    answered, ids = set(), {}
    for d in list(endpoint.deliveries):
        body = d.json
        key = (body["data"]["response"]["uuid"], body["type"])
        ids.setdefault(key, set()).add(d.headers["webhook-id"])
        if d.answered:
            answered.add(key)
    return answered, ids


def lost_writes(load):
    """Acknowledged writes PostgreSQL does not hold as acknowledged."""
    lost = []
    links = list(load.acked_links)
    for i in range(0, len(links), 1000):
        chunk = links[i:i + 1000]
        found = {row[0] for row in harness.sql(
            f"SELECT uuid FROM links.links WHERE uuid = ANY('{{{','.join(chunk)}}}'::uuid[])")}
        lost += [f"link {u}" for u in chunk if u not in found]
    responses = list(load.acked_responses)
    for i in range(0, len(responses), 1000):
        chunk = responses[i:i + 1000]
        rows = {row[0]: row for row in harness.sql(
            "SELECT uuid, status, answers FROM responses.responses "
            f"WHERE uuid = ANY('{{{','.join(chunk)}}}'::uuid[])")}
        for u in chunk:
            row = rows.get(u)
            if not row or row[1] != "completed" or load.acked_responses[u] not in row[2]:
                lost.append(f"response {u}")
    return lost


def inject_under_load(load, plan, quiet):
    started = time.monotonic()
    load.start()
    time.sleep(quiet)
    for fault in plan:
        say(f"injecting: {fault.name}")
        fault.run()
        time.sleep(quiet)
    load.stop()
    say(f"load stopped after {time.monotonic() - started:.0f} s; checking")


def wait_for_events(load, endpoint, timeout=120):
    """The events expected, and those delivered once all were, or once `timeout` passed."""
    expected = {(u, e) for u in load.acked_responses for e in EVENTS}
    deadline = time.monotonic() + timeout
    answered, ids = delivered_events(endpoint)
    while not expected <= answered and time.monotonic() < deadline:
        time.sleep(0.5)
        answered, ids = delivered_events(endpoint)
    return expected, answered, ids


def report(load, plan, verdict, lost, expected, answered, ids, recoveries, quick):
    """Prints the table, keeps it in .run/chaos/latest.json; True when everything held."""
    events_lost = expected - answered
    split_ids = [k for k in expected if len(ids.get(k, ())) > 1]
    worst_fault, worst = max(recoveries, key=lambda fr: fr[1])
    say()
    say(f"{'fault':<36} {'outage':>8} {'recovered in':>13}")
    for fault, seconds in recoveries:
        say(f"{fault.name:<36} {fault.down_s:>6.1f} s {seconds:>11.2f} s")
    say()
    writes = len(load.acked_links) + len(load.acked_responses)
    table = [("faults injected", len(plan)),
             ("requests sent", len(load.records)),
             ("  answered as asked", verdict.ok),
             ("  503 with Retry-After", verdict.degraded),
             ("  cut by a killed gateway", verdict.cut),
             ("  violations (hung, wrong status)", len(verdict.violations)),
             ("acknowledged writes", f"{writes} ({len(load.acked_links)} links, "
                                     f"{len(load.acked_responses)} responses)"),
             ("lost writes (must be 0)", len(lost)),
             ("events expected", len(expected)),
             ("events delivered", len(expected & answered)),
             ("lost events (must be 0)", len(events_lost)),
             ("events with two webhook-ids", len(split_ids)),
             ("worst recovery", f"{worst:.2f} s ({worst_fault.name}; target {RECOVERY_TARGET_S:g} s)")]
    for name, value in table:
        say(f"{name:<36} {value}")
    for v in verdict.violations[:10]:
        say(f"violation: {v}")
    for w in lost[:10]:
        say(f"lost: {w}")
    for e in sorted(events_lost)[:10]:
        say(f"event not delivered: {e[1]} of response {e[0]}")
    out = os.path.join(harness.ROOT, ".run", "chaos")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "latest.json"), "w") as f:
        json.dump({"quick": quick, "table": dict(table),
                   "recoveries": [[fault.name, seconds] for fault, seconds in recoveries],
                   "violations": verdict.violations, "lost": lost,
                   "events_lost": sorted(events_lost)}, f, indent=2)
    return not (verdict.violations or lost or events_lost or split_ids or worst > RECOVERY_TARGET_S
                or not load.acked_responses or not load.acked_links)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the bounded form CI runs")
    parser.add_argument("--cert-dir", default=os.path.join(harness.ROOT, ".run", "chaos-ca"))
    args = parser.parse_args()

    receiver = webhook_receiver.Receiver(args.cert_dir)
    target, endpoint = set_up(receiver)
    threads = ({"read": 2, "create": 1, "submit": 2, "list": 1} if args.quick
               else {"read": 3, "create": 2, "submit": 4, "list": 1})
    load = Load(target, threads)
    plan = faultlib.plan(args.quick, receiver, endpoint)
    # A second dispatcher beside the stack's, as production runs several: when the stack's is
    # killed, the sends it had claimed come due again and either may make them.
    with harness.ExtraProcess("webhooks", log_name="webhooks-2"):
        inject_under_load(load, plan, quiet=2 if args.quick else 4)
        verdict = Verdict(load.records, plan)
        lost = lost_writes(load)
        expected, answered, ids = wait_for_events(load, endpoint)
    recoveries = [(fault, recovery(fault, load.records, endpoint)) for fault in plan]
    receiver.stop()
    passed = report(load, plan, verdict, lost, expected, answered, ids, recoveries, args.quick)
    say("passed: nothing acknowledged was lost, every event arrived" if passed else "FAILED")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
