"""The export and report rows of scripts/bench, on the link seeded with a million responses:
GET /v1/links/{uuid}/responses/export/ as CSV and as XLSX (docs/api.md "Exports"): rows per
second, time to the first byte, and how far the resident memory of the gateway and of the
responses service rose above where it was while the file was sent; and the time to the first
byte of its shared report's page once its summary is kept (docs/api.md "Shared reports")."""
import http.client
import json
import os
import threading
import time
import urllib.parse

TARGETS = {"csv_rows_per_s": 50000.0, "xlsx_rows_per_s": 20000.0, "rss_growth_mib": 64.0,
           "report_first_byte_ms": 100.0}


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


class PeakRss:
    """The highest VmRSS of `pids` above each one's level at the start, sampled every 20 ms."""

    def __init__(self, pids):
        self.pids = pids
        self.start = {name: rss_mib(pid) for name, pid in pids.items()}
        self.peak = dict(self.start)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def sample(self):
        while not self.done.wait(0.02):
            for name, pid in self.pids.items():
                self.peak[name] = max(self.peak[name], rss_mib(pid))

    def growth(self):
        self.done.set()
        self.thread.join()
        return {name: self.peak[name] - self.start[name] for name in self.pids}


def timed_export(base_url, seeded, fmt, pids):
    """One export read to its end in 1 MiB reads: seconds to the first byte and in all, bytes,
    and the memory growth of each process in `pids`."""
    url = urllib.parse.urlsplit(f"{base_url}links/{seeded['link_uuid']}/responses/export/?format={fmt}")
    conn = http.client.HTTPConnection(url.netloc, timeout=600)
    memory = PeakRss(pids)
    started = time.perf_counter()
    conn.request("GET", f"{url.path}?{url.query}", headers={"Authorization": f"Bearer {seeded['api_key']}"})
    r = conn.getresponse()
    if r.status != 200:
        raise SystemExit(f"bench: export as {fmt}: {r.status} {r.read()[:300]!r}")
    first = r.read(1)
    first_byte = time.perf_counter() - started
    size, line_ends = len(first), first.count(b"\n")
    while block := r.read(1 << 20):
        size += len(block)
        line_ends += block.count(b"\n")
    seconds = time.perf_counter() - started
    conn.close()
    return {"format": fmt, "rows": seeded["count"], "seconds": seconds, "first_byte_ms": first_byte * 1000,
            "bytes": size, "line_ends": line_ends, "rss_growth_mib": memory.growth(),
            "rows_per_s": seeded["count"] / seconds if seconds else 0}


def report_first_byte(base_url, seeded):
    """Milliseconds to the first byte of the link's report page, median of 5, after one view
    that reads and keeps its summary; and that first view's."""
    url = urllib.parse.urlsplit(base_url)
    conn = http.client.HTTPConnection(url.netloc, timeout=120)
    conn.request("POST", f"{url.path}links/{seeded['link_uuid']}/reports/", body=b"{}",
                 headers={"Authorization": f"Bearer {seeded['api_key']}", "Content-Type": "application/json"})
    r = conn.getresponse()
    body = r.read()
    if r.status != 201:
        raise SystemExit(f"bench: making a report: {r.status} {body[:300]!r}")
    path = urllib.parse.urlsplit(json.loads(body)["url"]).path
    times = []
    for _ in range(6):
        started = time.perf_counter()
        conn.request("GET", path, headers={"Host": seeded["host"], "Accept": "text/html"})
        r = conn.getresponse()
        r.read(1)
        times.append((time.perf_counter() - started) * 1000)
        r.read()
        if r.status != 200:
            raise SystemExit(f"bench: the report page: {r.status}")
    conn.close()
    return {"first_view_ms": times[0], "kept_ms": sorted(times[1:])[2]}


def rows(base_url, seeded, stack_dir):
    """CSV (after one untimed CSV export that brings the link's rows into memory, so that the
    figure is the export's and not the disk's), then XLSX."""
    pids = {}
    for name in ("gateway", "responses"):
        with open(os.path.join(stack_dir, "pids", f"{name}.pid")) as f:
            pids[name] = int(f.read().strip())
    print(f"bench: exports of {seeded['count']:,} responses: warm-up (CSV) ...", flush=True)
    timed_export(base_url, seeded, "csv", pids)
    figures = {}
    for fmt in ("csv", "xlsx"):
        print(f"bench: exports of {seeded['count']:,} responses: {fmt} ...", flush=True)
        figures[fmt] = timed_export(base_url, seeded, fmt, pids)
    # Every response is a row: CSV's lines are at least the rows and the header (answers may
    # hold line breaks of their own).
    if figures["csv"]["line_ends"] < seeded["count"] + 1:
        raise SystemExit(f"bench: the CSV export holds {figures['csv']['line_ends']:,} lines for "
                         f"{seeded['count']:,} responses")
    print(f"bench: the report page of {seeded['count']:,} responses ...", flush=True)
    figures["report"] = report_first_byte(base_url, seeded)
    return figures


def print_figures(figures):
    print("\nExports of the link with a million responses (rows/s; first byte; memory growth):")
    for fmt, f in figures.items():
        if fmt == "report":
            continue
        growth = ", ".join(f"{name} {mib:+.1f} MiB" for name, mib in f["rss_growth_mib"].items())
        print(f"  {fmt:<5} {f['rows_per_s']:>9,.0f} rows/s  {f['seconds']:6.1f} s  first byte "
              f"{f['first_byte_ms']:8.1f} ms  {f['bytes'] / 2**20:7.1f} MiB  {growth}")
    report = figures["report"]
    print(f"  report page: first byte {report['kept_ms']:.1f} ms once its summary is kept (median of "
          f"5), {report['first_view_ms']:.1f} ms for the view that keeps it")


def checks(figures):
    out = {}
    report = figures["report"]
    out[f"report page of a million responses, first byte < 100 ms once kept ({report['kept_ms']:.1f} ms)"] = \
        report["kept_ms"] < TARGETS["report_first_byte_ms"]
    for fmt in ("csv", "xlsx"):
        f = figures[fmt]
        target = TARGETS[f"{fmt}_rows_per_s"]
        out[f"export as {fmt} >= {target:,.0f} rows/s ({f['rows_per_s']:,.0f})"] = \
            f["bytes"] > 0 and f["rows_per_s"] >= target
        worst = max(f["rss_growth_mib"].values())
        out[f"export as {fmt}: gateway and responses RSS growth < 64 MiB ({worst:.1f} MiB)"] = \
            f["bytes"] > 0 and worst < TARGETS["rss_growth_mib"]
    return out
