"""The erasure row of scripts/bench: POST /v1/responses/erase/ of one respondent's 10,000
responses (docs/api.md "Erasure and retention"), seeded into a link of their own, while W4 runs
against the same gateway; responses erased per second, and W4 during the erasure beside W4
alone. The erasure takes a second or so of W4's ten: W4's figure during it is the submissions
stored within its window (PostgreSQL's submitted_at), per second."""
import json
import os
import subprocess
import threading
import time
import uuid

from bench_processes import stack_env

ERASED = 10_000
TARGETS = {"erased_per_s": 1000.0, "w4_share": 0.7}


def row(tools, gateway, base, made, link_body, root, stack_dir, w4_alone):
    """Seeds, then runs W4 (tools.wrk, for its usual duration) and, a second into it, the
    erasure, in the workspace `made` (feedbackctl's answer). Returns the W4 row taken during the
    erasure and the figures."""
    key, bench_host = made["api_key"], made["host"]
    _, created = tools.http("POST", base + "links/", key,
                            dict(link_body, slug=f"erase-{uuid.uuid4().hex[:8]}"))
    link = json.loads(created)
    email = f"bench-erasure-{uuid.uuid4().hex[:8]}@example.com"
    seeded = subprocess.run(
        [os.path.join(root, "scripts", "seed-responses"), "--count", str(ERASED), "--link-uuid",
         link["uuid"], "--workspace-uuid", made["workspace_uuid"], "--api-key", key,
         "--respondent-email", email, "--batch", "5000"],
        capture_output=True, text=True, env=dict(os.environ, STACK_DIR=stack_dir))
    if seeded.returncode != 0:
        raise SystemExit(f"bench: seeding the erasure's responses: {seeded.stderr[-500:]}")
    _, hot_created = tools.http("POST", base + "links/", key,
                                dict(link_body, slug=f"w4-erase-{uuid.uuid4().hex[:8]}"))
    hot = json.loads(hot_created)
    erased = {}

    def erase():
        time.sleep(3.0)
        erased["from"] = time.time()
        started = time.perf_counter()
        status, body = tools.http("POST", base + "responses/erase/", key, {"respondent_email": email})
        erased["seconds"] = time.perf_counter() - started
        erased["to"] = time.time()
        erased["status"], erased["body"] = status, body

    print(f"bench: erasing {ERASED:,} responses of one respondent while W4 runs ...", flush=True)
    eraser = threading.Thread(target=erase)
    eraser.start()
    w4 = tools.wrk(gateway.url(f"/i/{hot['slug']}/submit/"), "intake_submit.lua", None,
                   tools.connections, tools.duration, {"BENCH_HOST": bench_host})
    eraser.join()
    if erased["status"] != 200 or json.loads(erased["body"])["erased"] != ERASED:
        raise SystemExit(f"bench: the erasure answered {erased['status']} {erased['body'][:300]!r}")
    w4["name"] = "W4 beside an erasure"
    w4["connections"] = int(tools.connections)
    within = stored_between(stack_dir, hot["uuid"], erased["from"], erased["to"])
    figures = {"erased": ERASED, "seconds": erased["seconds"],
               "erased_per_s": ERASED / erased["seconds"],
               "w4_rps": within / (erased["to"] - erased["from"]), "w4_run_rps": w4["rps"],
               "w4_alone_rps": w4_alone["rps"], "w4_p99_ms": w4["p99_us"] / 1000,
               "w4_alone_p99_ms": w4_alone["p99_us"] / 1000}
    return w4, figures


def stored_between(stack_dir, link_uuid, since, until):
    """The link's responses submitted within [since, until] (seconds since the epoch)."""
    out = subprocess.run(["psql", stack_env(stack_dir)["DATABASE_URL"], "-XtAc",
                          "SELECT count(*) FROM responses.responses WHERE link_uuid = "
                          f"'{link_uuid}' AND submitted_at BETWEEN to_timestamp({since}) "
                          f"AND to_timestamp({until})"], capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def print_figures(f):
    print(f"\nErasing one respondent's {f['erased']:,} responses while W4 runs: {f['seconds']:.2f} s, "
          f"{f['erased_per_s']:,.0f} responses/s")
    print(f"  W4 within the erasure {f['w4_rps']:,.0f} submissions/s (its whole run "
          f"{f['w4_run_rps']:,.0f}/s, p99 {f['w4_p99_ms']:.1f} ms); W4 alone {f['w4_alone_rps']:,.0f}/s, "
          f"p99 {f['w4_alone_p99_ms']:.1f} ms")


def checks(f):
    return {
        f"erasure >= {TARGETS['erased_per_s']:,.0f} responses/s while W4 runs":
            f["erased_per_s"] >= TARGETS["erased_per_s"],
        f"W4 during an erasure at least {TARGETS['w4_share']:.0%} of W4 alone":
            f["w4_rps"] >= TARGETS["w4_share"] * f["w4_alone_rps"],
    }
