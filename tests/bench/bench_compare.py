"""BENCH_ONLY=compare BENCH_BEFORE=DIR: W1 and W4 on the binaries of this build beside those
of another (DIR holds its gateway and responses binaries, e.g. copied from build/services/
before a change), each a gateway with a responses service of its own on the stack, taken in
turn twice (best of each) since this machine's speed drifts from run to run. Prints requests
per second, p99 and the gateway's and responses' CPU microseconds per request of both, and
the change in each."""
import json
import os

from bench_processes import BenchProcess


def rows(tools, stack_dir, out_dir, base, key, link_body, bench_host, before_dir):
    """[(label, {"W1": row, "W4": row})] for "before" and "after"."""
    missing = [b for b in ("gateway", "responses") if not os.path.exists(os.path.join(before_dir, b))]
    if missing:
        raise SystemExit(f"bench: BENCH_BEFORE={before_dir} has no {', '.join(missing)} binary")
    _, created = tools.http("POST", base + "links/", key, link_body)
    link = json.loads(created)
    _, created = tools.http("POST", base + "links/", key, dict(link_body, slug=f"cmp-{link['uuid'][:8]}"))
    hot = json.loads(created)
    pairs, processes = {}, []
    try:
        for label, binaries in (("before", before_dir), ("after", None)):
            responses = BenchProcess("responses", stack_dir, out_dir, binary_dir=binaries)
            gateway = BenchProcess("gateway", stack_dir, out_dir, binary_dir=binaries,
                                   TRUSTED_PROXIES="127.0.0.1",
                                   RESPONSES_ADDR=f"127.0.0.1:{responses.port}")
            processes += [responses, gateway]
            pairs[label] = (gateway, responses)
        runs = {label: {"W1": [], "W4": []} for label in pairs}
        for round_number in range(2):
            # Each round in the other order: the link grows, and the machine warms, as it goes.
            order = list(pairs.items())
            for label, (gateway, responses) in (order if round_number == 0 else order[::-1]):
                runs[label]["W1"].append(measure(tools, f"W1 {label}", gateway, responses,
                                                 gateway.url(f"/v1/links/{link['uuid']}/"),
                                                 "get.lua", key, {}))
                runs[label]["W4"].append(measure(tools, f"W4 {label}", gateway, responses,
                                                 gateway.url(f"/i/{hot['slug']}/submit/"),
                                                 "intake_submit.lua", None, {"BENCH_HOST": bench_host}))
        return [(label, {row: max(r, key=lambda x: x["rps"]) for row, r in by_row.items()})
                for label, by_row in runs.items()]
    finally:
        for p in reversed(processes):
            p.stop()


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(tools, name, gateway, responses, url, script, key, extra_env):
    print(f"bench: {name}: warm-up, then a measured run ...", flush=True)
    tools.wrk(url, script, key, tools.connections, tools.warmup, extra_env)
    before = {p: cpu_seconds(p.pid) for p in (gateway, responses)}
    r = tools.wrk(url, script, key, tools.connections, tools.duration, extra_env)
    r["gateway_cpu_us"] = (cpu_seconds(gateway.pid) - before[gateway]) * 1e6 / max(r["requests"], 1)
    r["responses_cpu_us"] = (cpu_seconds(responses.pid) - before[responses]) * 1e6 / max(r["requests"], 1)
    return r


def print_rows(compared):
    print(f"\n{'row':<12} {'req/s':>9} {'p99 ms':>8} {'gateway us':>11} {'responses us':>13} {'errors':>7}")
    for label, by_row in compared:
        for row, r in by_row.items():
            print(f"{row + ' ' + label:<12} {r['rps']:>9.0f} {r['p99_us'] / 1000:>8.2f} "
                  f"{r['gateway_cpu_us']:>11.1f} {r['responses_cpu_us']:>13.1f} {r['errors']:>7}")
    before, after = dict(compared)["before"], dict(compared)["after"]
    for row in ("W1", "W4"):
        change = after[row]["rps"] / before[row]["rps"] - 1 if before[row]["rps"] else 0
        print(f"{row}: after is {change:+.1%} in requests per second against before")
