#!/usr/bin/env python3
"""Runs the benchmark scenarios with wrk against a running stack (STACK_DIR) and nginx.

Prints one table (requests/s, p50, p99, ratio to W0, errors) and writes it as JSON to
.run/bench/latest.json. Exits 1 when any scenario had errors (non-2xx answers included)."""
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import types
import urllib.error
import urllib.request

import bench_all_types
import bench_compare
import bench_erasure
import bench_exports
import bench_media
import bench_webhooks
import stack_cpu
from bench_processes import BenchProcess, free_port, stack_env, workspace
from nginx_server import Nginx

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
STACK_DIR = os.environ.get("STACK_DIR", os.path.join(ROOT, ".run"))
OUT_DIR = os.path.join(ROOT, ".run", "bench")
DURATION = os.environ.get("BENCH_DURATION", "10s")
WARMUP = os.environ.get("BENCH_WARMUP", "3s")
THREADS = os.environ.get("BENCH_THREADS", "2")
CONNECTIONS = os.environ.get("BENCH_CONNECTIONS", "64")
# Issue 29's figures: every hot path at its cost floor.
TARGETS = {"W1_ratio": 0.5, "W1_p99_ms": 5.0, "W1_gateway_cpu_us": 20.0, "W1_1000_ratio": 0.45,
           "W2_rps": 4000.0, "RSS_MiB": 64.0,
           "W3_rps": 4000.0, "W3_p99_ms": 20.0, "W3_search_rps": 1000.0, "W4_rps": 3000.0,
           "W4_p99_ms": 50.0, "scale_ms": 50.0, "W5_ratio": 0.7, "W7_ratio": 0.6,
           "W1_limiter_cost": 0.05, "W4_evaluator_cost": 0.10, "summary_ms": 100.0}
W3_RESPONSES = int(os.environ.get("BENCH_W3_RESPONSES", "100000"))
SCALE_RESPONSES = int(os.environ.get("BENCH_SCALE_RESPONSES", "1000000"))
# The throwaway CA whose certificate the stacks' dispatchers trust (scripts/bench makes it).
CA_DIR = os.environ.get("BENCH_CA_DIR", os.path.join(ROOT, ".run", "bench-ca"))
RARE_WORD = "zebracorn"  # in 0.1% of seeded responses (scripts/seed-responses)


def http(method, url, key, body=None, headers=None):
    req = urllib.request.Request(url, method=method, data=body and json.dumps(body).encode(),
                                 headers={"Authorization": f"Bearer {key}",
                                          "Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.status, r.read()


def check_refused(url, key, samples=20):
    """W5's answers, sampled: each must be 429 RATE_LIMITED with Retry-After."""
    for _ in range(samples):
        try:
            http("GET", url, key)
        except urllib.error.HTTPError as e:
            body = json.loads(e.read())
            if e.code == 429 and e.headers.get("Retry-After") and \
                    body["error"]["code"] == "RATE_LIMITED":
                continue
            raise SystemExit(f"bench: W5 answered {e.code} {body}")
        raise SystemExit("bench: W5's key was admitted: it must be over its limit")


def seeded_link(env, count):
    """A link holding `count` seeded responses: the one seeded for an earlier run of this
    stack when it is still there, else a new one (scripts/seed-responses)."""
    record = os.path.join(OUT_DIR, f"seeded-{count}.json")
    if os.path.exists(record):
        with open(record) as f:
            seeded = json.load(f)
        try:
            _, body = http("GET", f"{env['BASE_URL']}links/{seeded['link_uuid']}/",
                           seeded["api_key"])
            if json.loads(body)["response_count"] >= count:
                print(f"bench: reusing the link with {count:,} seeded responses", flush=True)
                return seeded
        except (OSError, KeyError, ValueError):
            pass
    print(f"bench: seeding {count:,} responses ...", flush=True)
    out = subprocess.run([os.path.join(ROOT, "scripts", "seed-responses"), "--count", str(count)],
                         stdout=subprocess.PIPE, text=True, check=True,
                         env=dict(os.environ, STACK_DIR=STACK_DIR))
    seeded = json.loads(out.stdout.strip().splitlines()[-1])
    with open(record, "w") as f:
        json.dump(seeded, f)
    return seeded


def timed_get(url, key, tries=5):
    """Median seconds of `tries` GETs after one warm-up, each read afresh (not a page the gateway
    kept); fails on any non-2xx answer."""
    fresh = {"Cache-Control": "no-cache"}
    http("GET", url, key, headers=fresh)
    times = []
    for _ in range(tries):
        started = time.perf_counter()
        http("GET", url, key, headers=fresh)
        times.append(time.perf_counter() - started)
    return sorted(times)[len(times) // 2]


def wrk(url, script, key, connections=CONNECTIONS, duration=DURATION, extra_env=None):
    # A fresh run id for every invocation keeps W2's slugs unique across warm-up and run.
    env = dict(os.environ, BENCH_LUA_DIR=HERE, BENCH_KEY=key or "", BENCH_RUN=str(time.time_ns()),
               **(extra_env or {}))
    cmd = ["wrk", f"-t{THREADS}", f"-c{connections}", f"-d{duration}", "--latency", "--timeout", "5s",
           "-s", os.path.join(HERE, script), url]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    m = re.search(r"BENCH_RESULT (\{.*\})", out.stdout)
    if not m:
        raise SystemExit(f"bench: wrk failed: {out.stdout[-500:]} {out.stderr[-500:]}")
    r = json.loads(m.group(1))
    r["errors"] = r["non2xx"] + r["connect_errors"] + r["read_errors"] + r["write_errors"] + r["timeouts"]
    return r


def scenario(name, url, script, key, connections=CONNECTIONS, extra_env=None, stack=True,
             gateway=None, stack_dir=STACK_DIR):
    """One wrk run after a warm-up; with the CPU per request of the stack in `stack_dir`
    unless `stack` is False (`gateway`: the BenchProcess measured instead of the stack's)."""
    pg_port = stack_env(stack_dir)["PG_PORT"]
    gateway_pid = gateway.pid if gateway else None
    waited, busy = stack_cpu.settle(stack_dir, pg_port, gateway_pid)
    if waited > 1:
        print(f"bench: {name}: waited {waited:.0f} s for the stack to settle "
              f"({busy:.0%} of a core last)", flush=True)
    print(f"bench: {name}: warm-up {WARMUP}, then {DURATION} at {connections} connections ...",
          flush=True)
    wrk(url, script, key, connections, WARMUP, extra_env)
    before = stack_cpu.snapshot(stack_dir, pg_port, gateway_pid)
    r = wrk(url, script, key, connections, DURATION, extra_env)
    if stack:
        after = stack_cpu.snapshot(stack_dir, pg_port, gateway_pid)
        r["cpu_us_per_request"] = stack_cpu.per_request(before, after, r["requests"])
    r["name"] = name
    r["connections"] = int(connections)
    return r


TOOLS = types.SimpleNamespace(http=http, wrk=wrk, scenario=scenario, threads=THREADS,
                              connections=CONNECTIONS, warmup=WARMUP, duration=DURATION)


def evaluator_pair(slug, bench_host):
    """W4 with and without the local evaluator (AI_EVALUATOR=off): two responses services of the
    bench's own, each behind a gateway of its own, alike but for that, in turn twice (best of
    each), since this machine's speed drifts from run to run."""
    processes = []
    try:
        gateways = {}
        for name, evaluator in (("W4, evaluator on", "local"), ("W4, evaluator off", "off")):
            responses = BenchProcess("responses", STACK_DIR, OUT_DIR, AI_EVALUATOR=evaluator)
            processes.append(responses)
            gateways[name] = BenchProcess("gateway", STACK_DIR, OUT_DIR, TRUSTED_PROXIES="127.0.0.1",
                                          RESPONSES_ADDR=f"127.0.0.1:{responses.port}")
            processes.append(gateways[name])
        runs = []
        for _ in range(2):
            for name, gateway in gateways.items():
                runs.append(scenario(name, gateway.url(f"/i/{slug}/submit/"), "intake_submit.lua",
                                     None, extra_env={"BENCH_HOST": bench_host}, stack=False))
        return [max((r for r in runs if r["name"] == name), key=lambda r: r["rps"])
                for name in gateways]
    finally:
        for p in reversed(processes):
            p.stop()


def rss_with_idle_connections(gateway_pid, host, port, key, count=1000):
    """Opens `count` keep-alive connections, each after one request, and reads VmRSS."""
    socks = []
    request = (f"GET /v1/tokens/?page_size=1 HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {key}\r\n\r\n").encode()
    try:
        for _ in range(count):
            s = socket.create_connection((host, port), timeout=10)
            s.sendall(request)
            data = b""
            while b"\r\n\r\n" not in data:
                data += s.recv(65536)
            head, _, rest = data.partition(b"\r\n\r\n")
            length = int(re.search(rb"Content-Length: (\d+)", head, re.I).group(1))
            while len(rest) < length:
                rest += s.recv(65536)
            socks.append(s)
        time.sleep(1)
        with open(f"/proc/{gateway_pid}/status") as f:
            kb = int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1))
        return kb / 1024.0, len(socks)
    finally:
        for s in socks:
            s.close()


def webhooks_only():
    """BENCH_ONLY=webhooks: W8 and W6 alone (they run on a stack of their own)."""
    with open(os.path.join(HERE, "link_5_questions.json")) as f:
        link_body = json.load(f)
    w6, hooks = bench_webhooks.rows(TOOLS, link_body, CA_DIR)
    bench_webhooks.print_figures(hooks)
    checks = bench_webhooks.checks(hooks)
    print()
    for name, ok in checks.items():
        print(f"target {'met    ' if ok else 'NOT met'}  {name}")
    return 1 if w6["errors"] or not all(checks.values()) else 0


def compare_only():
    """BENCH_ONLY=compare BENCH_BEFORE=DIR: W1 and W4 of this build against another's."""
    before_dir = os.environ.get("BENCH_BEFORE", "")
    if not before_dir:
        raise SystemExit("bench: BENCH_ONLY=compare needs BENCH_BEFORE, a directory of binaries")
    env = stack_env(STACK_DIR)
    made = workspace(shlex.split(env["FEEDBACKCTL"]), "bench-compare")
    with open(os.path.join(HERE, "link_5_questions.json")) as f:
        link_body = json.load(f)
    compared = bench_compare.rows(TOOLS, STACK_DIR, OUT_DIR, env["BASE_URL"], made["api_key"],
                                  link_body, made["host"], before_dir)
    bench_compare.print_rows(compared)
    return 1 if any(r["errors"] for _, by_row in compared for r in by_row.values()) else 0


def types_only():
    """BENCH_ONLY=types: W4 and W4, 32 types on one bench gateway, and the summary of the
    32-type link filled to BENCH_ALL_TYPES_RESPONSES responses."""
    env = stack_env(STACK_DIR)
    base = env["BASE_URL"]
    made = workspace(shlex.split(env["FEEDBACKCTL"]), "bench-types")
    key, bench_host = made["api_key"], made["host"]
    with open(os.path.join(HERE, "link_5_questions.json")) as f:
        link_body = json.load(f)
    gateway = BenchProcess("gateway", STACK_DIR, OUT_DIR, TRUSTED_PROXIES="127.0.0.1")
    try:
        _, created = http("POST", base + "links/", key, dict(link_body, slug=f"w4-{int(time.time())}"))
        hot = json.loads(created)
        rows = [scenario("W4 intake one-shot submit", gateway.url(f"/i/{hot['slug']}/submit/"),
                         "intake_submit.lua", None, extra_env={"BENCH_HOST": bench_host},
                         gateway=gateway)]
        all_types_rows, all_types = bench_all_types.rows(TOOLS, gateway, base, key, bench_host)
        rows += all_types_rows
    finally:
        gateway.stop()
    print(f"\n{'scenario':<28} {'conns':>5} {'req/s':>10} {'p50 ms':>8} {'p99 ms':>8}")
    for r in rows:
        print(f"{r['name']:<28} {r['connections']:>5} {r['rps']:>10.0f} {r['p50_us'] / 1000:>8.2f} "
              f"{r['p99_us'] / 1000:>8.2f}")
        cpu = r.get("cpu_us_per_request", {})
        print("  CPU us/request: " + "  ".join(f"{role} {us:.0f}" for role, us in cpu.items() if us >= 0.5))
    bench_all_types.print_figures(all_types)
    checks = bench_all_types.checks(rows[1], all_types)
    print()
    for name, ok in checks.items():
        print(f"target {'met    ' if ok else 'NOT met'}  {name}")
    return 1 if any(r["errors"] for r in rows) else 0


def erasure_only():
    """BENCH_ONLY=erasure: W4 alone, then W4 while one respondent's 10,000 responses are erased,
    on one bench gateway."""
    env = stack_env(STACK_DIR)
    base = env["BASE_URL"]
    made = workspace(shlex.split(env["FEEDBACKCTL"]), "bench-erasure")
    with open(os.path.join(HERE, "link_5_questions.json")) as f:
        link_body = json.load(f)
    gateway = BenchProcess("gateway", STACK_DIR, OUT_DIR, TRUSTED_PROXIES="127.0.0.1")
    try:
        _, created = http("POST", base + "links/", made["api_key"],
                          dict(link_body, slug=f"w4-{int(time.time())}"))
        hot = json.loads(created)
        alone = scenario("W4 intake one-shot submit", gateway.url(f"/i/{hot['slug']}/submit/"),
                         "intake_submit.lua", None, extra_env={"BENCH_HOST": made["host"]},
                         gateway=gateway)
        during, erasure = bench_erasure.row(TOOLS, gateway, base, made, link_body, ROOT, STACK_DIR,
                                            alone)
    finally:
        gateway.stop()
    for r in (alone, during):
        print(f"{r['name']:<28} {r['rps']:>10.0f} req/s  p99 {r['p99_us'] / 1000:.2f} ms")
    bench_erasure.print_figures(erasure)
    checks = bench_erasure.checks(erasure)
    print()
    for name, ok in checks.items():
        print(f"target {'met    ' if ok else 'NOT met'}  {name}")
    return 1 if alone["errors"] or during["errors"] or not all(checks.values()) else 0


def media_only():
    """BENCH_ONLY=media: W7 and the transcription figures (real-time factor, word error rates
    of real and synthetic speech, live partials) on one bench gateway."""
    env = stack_env(STACK_DIR)
    made = workspace(shlex.split(env["FEEDBACKCTL"]), "bench-media")
    gateway = BenchProcess("gateway", STACK_DIR, OUT_DIR, TRUSTED_PROXIES="127.0.0.1")
    try:
        rows, media = bench_media.media_rows(scenario, gateway, env["BASE_URL"], made["api_key"],
                                             made["host"], http, OUT_DIR, free_port)
    finally:
        gateway.stop()
    for r in rows:
        print(f"{r['name']:<32} {r['rps']:>10.0f} req/s  p99 {r['p99_us'] / 1000:.2f} ms")
    bench_media.print_media(media)
    checks = bench_media.media_checks(media)
    print()
    for name, ok in checks.items():
        print(f"target {'met    ' if ok else 'NOT met'}  {name}")
    return 1 if any(r["errors"] for r in rows) or not all(checks.values()) else 0


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    # A stop from outside ends the run as an error would: every process it started is stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    only = os.environ.get("BENCH_ONLY", "")
    if only not in ("", "webhooks", "compare", "types", "media", "erasure"):
        raise SystemExit(f"bench: BENCH_ONLY={only!r}: the subsets are 'webhooks', 'compare', "
                         "'types', 'media' and 'erasure'")
    if only == "erasure":
        return erasure_only()
    if only == "types":
        return types_only()
    if only == "media":
        return media_only()
    if only == "webhooks":
        return webhooks_only()
    if only == "compare":
        return compare_only()
    env = stack_env(STACK_DIR)
    base = env["BASE_URL"]
    ctl = shlex.split(env["FEEDBACKCTL"])
    made = workspace(ctl, "bench")
    key, bench_host = made["api_key"], made["host"]

    with open(os.path.join(HERE, "link_5_questions.json")) as f:
        link_body = json.load(f)
    status, created = http("POST", base + "links/", key, link_body)
    link = json.loads(created)
    w1_url = f"{base}links/{link['uuid']}/"
    status, w1_body = http("GET", w1_url, key)
    print(f"bench: W1 body is {len(w1_body)} bytes", flush=True)

    with Nginx(w1_body, free_port()) as nginx:
        results = [scenario("W0 nginx static", nginx.url(), "get.lua", None, stack=False)]
    results.append(scenario("W1 GET /v1/links/{uuid}/", w1_url, "get.lua", key))
    # W1 with and without rate limits, on two bench gateways alike but for that, taken in
    # turn twice (best of each) since this machine's speed drifts from run to run.
    limited = BenchProcess("gateway", STACK_DIR, OUT_DIR, TRUSTED_PROXIES="127.0.0.1")
    unlimited = BenchProcess("gateway", STACK_DIR, OUT_DIR, RATE_LIMITS="false")
    try:
        w1_path = f"/v1/links/{link['uuid']}/"
        pair = []
        for _ in range(2):
            pair.append(scenario("W1, rate limits on", limited.url(w1_path), "get.lua", key,
                                 gateway=limited))
            pair.append(scenario("W1, rate limits off", unlimited.url(w1_path), "get.lua", key,
                                 gateway=unlimited))
        for name in ("W1, rate limits on", "W1, rate limits off"):
            results.append(max((r for r in pair if r["name"] == name), key=lambda r: r["rps"]))
        # W5: a key over its limit, every answer 429.
        over_key = workspace(ctl, "bench-w5", plan="free", rate_limit=None)["api_key"]
        for _ in range(30):
            http("GET", base + "links/", over_key)
        check_refused(limited.url("/v1/links/"), over_key)
        results.append(scenario("W5 over the limit (429)", limited.url("/v1/links/"),
                                "over_limit.lua", over_key, gateway=limited))
        check_refused(limited.url("/v1/links/"), over_key)
        # W4 on the gateway that trusts the bench's X-Forwarded-For: one address per respondent.
        _, created = http("POST", base + "links/", key, dict(link_body, slug=f"w4-{int(time.time())}"))
        hot = json.loads(created)
        results.append(scenario("W4 intake one-shot submit", limited.url(f"/i/{hot['slug']}/submit/"),
                                "intake_submit.lua", None, extra_env={"BENCH_HOST": bench_host},
                                gateway=limited))
        w4_erasure, erasure = bench_erasure.row(TOOLS, limited, base, made, link_body, ROOT, STACK_DIR,
                                                results[-1])
        results.append(w4_erasure)
        all_types_rows, all_types = bench_all_types.rows(TOOLS, limited, base, key, bench_host)
        results += all_types_rows
        results += evaluator_pair(hot["slug"], bench_host)
        media_results, media = bench_media.media_rows(scenario, limited, base, key, bench_host, http,
                                                      OUT_DIR, free_port)
        results += media_results
    finally:
        limited.stop()
        unlimited.stop()
    results.append(scenario("W2 POST /v1/links/", base + "links/", "create_link.lua", key))
    results.append(scenario("W1 at 1000 connections", w1_url, "get.lua", key, connections=1000))

    w3 = seeded_link(env, W3_RESPONSES)
    w3_url = f"{base}links/{w3['link_uuid']}/responses/?page_size=20"
    results.append(scenario("W3 responses, page_size=20", w3_url, "get.lua", w3["api_key"]))
    results.append(scenario("W3 responses, search=", f"{w3_url}&search={RARE_WORD}", "get.lua",
                            w3["api_key"]))
    # The same pages read afresh (Cache-Control: no-cache): the cost of each read that finds no
    # current kept page, e.g. just after a submission into the link.
    fresh = {"BENCH_NO_CACHE": "1"}
    results.append(scenario("W3 page, read afresh", w3_url, "get.lua", w3["api_key"], extra_env=fresh))
    results.append(scenario("W3 search, read afresh", f"{w3_url}&search={RARE_WORD}", "get.lua",
                            w3["api_key"], extra_env=fresh))


    summary_ms = timed_get(f"{base}links/{w3['link_uuid']}/summary/", w3["api_key"]) * 1000

    scale = seeded_link(env, SCALE_RESPONSES)
    scale_url = f"{base}links/{scale['link_uuid']}/responses/?page_size=20"
    last_page = (SCALE_RESPONSES + 19) // 20
    scale_checks = [
        ("first page", timed_get(scale_url, scale["api_key"])),
        ("search for a word in 0.1%", timed_get(f"{scale_url}&search={RARE_WORD}", scale["api_key"])),
        (f"last page ({last_page:,})", timed_get(f"{scale_url}&page={last_page}", scale["api_key"])),
    ]
    exports = bench_exports.rows(base, scale, STACK_DIR)

    with open(os.path.join(STACK_DIR, "pids", "gateway.pid")) as f:
        gateway_pid = int(f.read().strip())
    gw = base.split("/")[2]
    rss, held = rss_with_idle_connections(gateway_pid, gw.split(":")[0], int(gw.split(":")[1]), key)
    w6, hooks = bench_webhooks.rows(TOOLS, link_body, CA_DIR)
    results.append(w6)

    w0 = results[0]["rps"]
    print()
    print(f"{'scenario':<28} {'conns':>5} {'req/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'vs W0':>7} {'errors':>7}")
    for r in results:
        r["ratio_to_w0"] = r["rps"] / w0 if w0 else 0
        print(f"{r['name']:<28} {r['connections']:>5} {r['rps']:>10.0f} {r['p50_us'] / 1000:>8.2f} "
              f"{r['p99_us'] / 1000:>8.2f} {r['ratio_to_w0']:>6.1%} {r['errors']:>7}")
    print(f"{'gateway RSS, 1000 idle conns':<28} {held:>5} {rss:>9.1f} MiB")
    print("\nCPU microseconds per request, by process (the steadier figure on a busy machine):")
    for r in results:
        if "cpu_us_per_request" in r:
            cpu = r["cpu_us_per_request"]
            print(f"  {r['name']:<28} total {sum(cpu.values()):>6.0f}  " +
                  "  ".join(f"{role} {us:.0f}" for role, us in cpu.items() if us >= 0.5))
    bench_webhooks.print_figures(hooks)
    print(f"\nGET /v1/links/{{uuid}}/summary/ of a link with {W3_RESPONSES:,} responses "
          f"(median of 5): {summary_ms:.1f} ms")
    bench_media.print_media(media)
    bench_all_types.print_figures(all_types)
    bench_exports.print_figures(exports)
    bench_erasure.print_figures(erasure)
    print(f"\nOne link with {SCALE_RESPONSES:,} responses, page_size=20 (median of 5):")
    for name, seconds in scale_checks:
        print(f"  {name:<34} {seconds * 1000:>8.1f} ms")

    by_name = {r["name"]: r for r in results}
    w1, w2 = by_name["W1 GET /v1/links/{uuid}/"], by_name["W2 POST /v1/links/"]
    w3, w3s = by_name["W3 responses, page_size=20"], by_name["W3 responses, search="]
    w3f, w3sf = by_name["W3 page, read afresh"], by_name["W3 search, read afresh"]
    w4 = by_name["W4 intake one-shot submit"]
    w5 = by_name["W5 over the limit (429)"]
    w1_on, w1_off = by_name["W1, rate limits on"], by_name["W1, rate limits off"]
    limiter_cost = 1 - w1_on["rps"] / w1_off["rps"] if w1_off["rps"] else 1
    w4_on, w4_off = by_name["W4, evaluator on"], by_name["W4, evaluator off"]
    evaluator_cost = 1 - w4_on["rps"] / w4_off["rps"] if w4_off["rps"] else 1
    w1_1000 = by_name["W1 at 1000 connections"]
    w7, w7_nginx = by_name["W7 intake page GET /i/{slug}"], by_name["W7 nginx, the page's bytes"]
    w7_ratio = w7["rps"] / w7_nginx["rps"] if w7_nginx["rps"] else 0
    # Measured on the run's requests: a run with none meets nothing.
    w1_gateway_us = w1.get("cpu_us_per_request", {}).get("gateway")
    checks = {
        "W1 >= 50% of W0": w1["ratio_to_w0"] >= TARGETS["W1_ratio"],
        "W1 p99 < 5 ms": w1["requests"] > 0 and w1["p99_us"] / 1000 < TARGETS["W1_p99_ms"],
        f"W1 gateway CPU <= 20 us per request ({w1_gateway_us or 0:.1f} us)":
            w1["requests"] > 0 and w1_gateway_us is not None
            and w1_gateway_us <= TARGETS["W1_gateway_cpu_us"],
        "W1 at 1000 connections >= 45% of W0": w1_1000["ratio_to_w0"] >= TARGETS["W1_1000_ratio"],
        f"W7 intake page >= 60% of nginx serving its bytes ({w7_ratio:.1%})":
            w7_ratio >= TARGETS["W7_ratio"],
        "W2 >= 4000 links/s": w2["rps"] >= TARGETS["W2_rps"],
        "gateway RSS < 64 MiB at 1000 connections": rss < TARGETS["RSS_MiB"],
        "W3 >= 4000 pages/s (kept pages)": w3["rps"] >= TARGETS["W3_rps"],
        "W3 p99 < 20 ms (kept pages)": w3["p99_us"] / 1000 < TARGETS["W3_p99_ms"],
        "W3 search >= 1000 pages/s (kept pages)": w3s["rps"] >= TARGETS["W3_search_rps"],
        # The same targets for reads that find no current kept page.
        "W3 >= 4000 pages/s (read afresh)": w3f["rps"] >= TARGETS["W3_rps"],
        "W3 p99 < 20 ms (read afresh)": w3f["p99_us"] / 1000 < TARGETS["W3_p99_ms"],
        "W3 search >= 1000 pages/s (read afresh)": w3sf["rps"] >= TARGETS["W3_search_rps"],
        "W4 >= 3000 submissions/s": w4["rps"] >= TARGETS["W4_rps"],
        "W4 p99 < 50 ms": w4["p99_us"] / 1000 < TARGETS["W4_p99_ms"],
        "W5 (429 path) >= 70% of W0": w5["ratio_to_w0"] >= TARGETS["W5_ratio"],
        f"W1 with rate limits at most 5% below without ({limiter_cost:+.1%})":
            limiter_cost <= TARGETS["W1_limiter_cost"],
        f"W4 with the local evaluator at most 10% below without ({evaluator_cost:+.1%})":
            evaluator_cost <= TARGETS["W4_evaluator_cost"],
        f"summary of {W3_RESPONSES:,} responses < 100 ms ({summary_ms:.0f} ms)":
            summary_ms < TARGETS["summary_ms"],
    }
    checks.update(bench_media.media_checks(media))
    checks.update(bench_all_types.checks(by_name["W4, 32 types"], all_types))
    checks.update(bench_erasure.checks(erasure))
    checks.update(bench_webhooks.checks(hooks))
    checks.update(bench_exports.checks(exports))
    for name, seconds in scale_checks:
        checks[f"{SCALE_RESPONSES:,} responses: {name} < 50 ms"] = seconds * 1000 < TARGETS["scale_ms"]
    print()
    for name, ok in checks.items():
        print(f"target {'met    ' if ok else 'NOT met'}  {name}")
    report = {"time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "duration": DURATION,
              "threads": int(THREADS), "w1_body_bytes": len(w1_body), "scenarios": results,
              "gateway_rss_mib_1000_idle": rss, "idle_connections_held": held,
              "scale_ms": {name: seconds * 1000 for name, seconds in scale_checks},
              "summary_ms": summary_ms,
              "media": media,
              "all_types": all_types,
              "webhooks": hooks,
              "exports": exports,
              "targets": checks}
    with open(os.path.join(OUT_DIR, "latest.json"), "w") as f:
        json.dump(report, f, indent=2)
    print(f"\nbench: wrote {os.path.join(OUT_DIR, 'latest.json')}")
    errors = sum(r["errors"] for r in results)
    if errors:
        print(f"bench: {errors} errors (non-2xx answers or socket errors): the run failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
