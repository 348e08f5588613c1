"""W4, 32 types: the public one-shot submit of a response answering a question of each of the
32 types (tests/bench/link_32_types.json, answers_32_types.json), beside W4 on the same bench
gateway; then that link filled to BENCH_ALL_TYPES_RESPONSES (100,000) such responses at full
speed, and its summary read (median of 5)."""
import json
import math
import os
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RESPONSES = int(os.environ.get("BENCH_ALL_TYPES_RESPONSES", "100000"))
TARGETS = {"rps": 2000.0, "p99_ms": 50.0, "summary_ms": 300.0}
BODY = os.path.join(HERE, "answers_32_types.json")


def rows(tools, gateway, base, key, bench_host):
    """([the W4, 32 types row], {"responses": n, "summary_ms": ms})."""
    with open(os.path.join(HERE, "link_32_types.json")) as f:
        link_body = json.load(f)
    link_body["slug"] = f"all-types-{int(time.time())}"
    _, created = tools.http("POST", base + "links/", key, link_body)
    link = json.loads(created)
    url = gateway.url(f"/i/{link['slug']}/submit/")
    env = {"BENCH_HOST": bench_host, "BENCH_BODY_FILE": BODY}
    row = tools.scenario("W4, 32 types", url, "intake_submit.lua", None, extra_env=env,
                         gateway=gateway)
    summary_url = f"{base}links/{link['uuid']}/summary/"
    count = summary_count(tools, summary_url, key)
    print(f"bench: filling the 32-type link to {RESPONSES:,} responses ({count:,} so far) ...",
          flush=True)
    while count < RESPONSES:
        # At the rate just measured, with a margin; the loop tops up what is still missing.
        seconds = max(2, math.ceil((RESPONSES - count) / max(row["rps"], 500) * 1.1))
        tools.wrk(url, "intake_submit.lua", None, duration=f"{seconds}s", extra_env=env)
        count = summary_count(tools, summary_url, key)
    fresh = {"Cache-Control": "no-cache"}
    tools.http("GET", summary_url, key, headers=fresh)
    times = []
    for _ in range(5):
        started = time.perf_counter()
        tools.http("GET", summary_url, key, headers=fresh)
        times.append(time.perf_counter() - started)
    return [row], {"responses": count, "summary_ms": sorted(times)[2] * 1000}


def summary_count(tools, url, key):
    _, body = tools.http("GET", url, key, headers={"Cache-Control": "no-cache"})
    return json.loads(body)["response_count"]


def print_figures(summary):
    print(f"\nGET /v1/links/{{uuid}}/summary/ of a link of 32 types with {summary['responses']:,} "
          f"responses (median of 5): {summary['summary_ms']:.1f} ms")


def checks(row, summary):
    return {
        "W4, 32 types >= 2000 submissions/s": row["rps"] >= TARGETS["rps"],
        "W4, 32 types p99 < 50 ms": row["p99_us"] / 1000 < TARGETS["p99_ms"],
        f"summary of {summary['responses']:,} 32-type responses < 300 ms "
        f"({summary['summary_ms']:.0f} ms)": summary["summary_ms"] < TARGETS["summary_ms"],
    }
