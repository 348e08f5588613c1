"""The two README commands as a newcomer runs them: from a clone the postgres user cannot
reach, and stopped with Ctrl-C. Each test runs a stack of its own, apart from the suite's."""
import http.client
import json
import os
import re
import signal
import stat
import subprocess
import tempfile
import time
import urllib.parse
from collections import Counter

from harness import ROOT, STACK_DIR, request, test, wait_until

STACK = os.path.join(ROOT, "scripts", "stack")


def session_processes(sid):
    """Pids of the live processes of session `sid` (zombies excluded)."""
    out = subprocess.run(["ps", "-e", "-o", "pid=,sid=,stat="], capture_output=True, text=True,
                         check=True).stdout
    return [int(p) for p, s, st in (line.split() for line in out.splitlines())
            if int(s) == sid and not st.startswith("Z")]


@test
def stack_runs_from_a_directory_the_postgres_user_cannot_reach():
    if os.geteuid() != 0:
        return  # only root's stack hands PostgreSQL to another user
    private = tempfile.mkdtemp(prefix="fb-private-")  # mode 700, like /root
    stack_dir = os.path.join(private, "clone", ".run")
    env = dict(os.environ, STACK_DIR=stack_dir)
    try:
        up = subprocess.run([STACK, "up"], env=env, capture_output=True, text=True, timeout=180)
        assert up.returncode == 0, f"stack up failed: {up.stdout[-500:]} {up.stderr[-800:]}"
        assert "PostgreSQL keeps its data in /var/tmp/feedback-stack-" in up.stdout, up.stdout
        # Nothing of the caller's was opened up for it.
        assert stat.S_IMODE(os.stat(private).st_mode) == 0o700
        fallback = [d for d in os.listdir("/var/tmp") if d.startswith("feedback-stack-")
                    and os.path.isdir(os.path.join("/var/tmp", d, "pg", "data"))]
        assert fallback, os.listdir("/var/tmp")
        status = subprocess.run([STACK, "status"], env=env, capture_output=True, text=True)
        assert "postgres  running" in status.stdout, status.stdout
    finally:
        purge = subprocess.run([STACK, "purge"], env=env, capture_output=True, text=True,
                               timeout=120)
        subprocess.run(["rm", "-rf", private])
    assert purge.returncode == 0, purge.stderr
    status = subprocess.run([STACK, "status"], env=env, capture_output=True, text=True)
    assert "running" not in status.stdout, status.stdout


@test
def run_leaves_nothing_behind_after_ctrl_c():
    stack_dir = tempfile.mkdtemp(prefix="fb-run-")
    env = dict(os.environ, STACK_DIR=stack_dir)
    log_path = os.path.join(stack_dir, "run-output.log")
    with open(log_path, "w") as log:
        # A session of its own, like a terminal: Ctrl-C signals its whole foreground group.
        # With SIGINT as a terminal leaves it: a suite started in the background (as a job of a
        # non-interactive shell) inherits SIGINT ignored, and bash cannot trap a signal
        # ignored on entry, so scripts/run would never see the Ctrl-C.
        run = subprocess.Popen([os.path.join(ROOT, "scripts", "run")], env=env, stdout=log,
                               stderr=subprocess.STDOUT, start_new_session=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        wait_until(lambda: "Logs follow" in open(log_path).read(), timeout=240,
                   what="scripts/run to print its banner")
        assert len(session_processes(run.pid)) >= 2, "the log follower should be running"
        # The demo link's page, as the banner names it, is the intake page.
        page = re.search(r"Its page, in a browser on this machine: (http://\S+)", open(log_path).read())
        assert page, "the banner names the demo link's page"
        u = urllib.parse.urlsplit(page.group(1))
        conn = http.client.HTTPConnection("127.0.0.1", u.port, timeout=10)
        conn.request("GET", u.path, headers={"Host": u.netloc})
        answer = conn.getresponse()
        html = answer.read().decode()
        conn.close()
        assert answer.status == 200 and "<title>Demo: how are we doing?</title>" in html, html[:300]
        os.killpg(run.pid, signal.SIGINT)
        try:
            run.wait(timeout=60)
        except subprocess.TimeoutExpired:
            with open(log_path) as f:
                tail = f.read()[-3000:]
            raise AssertionError(f"scripts/run still running 60 s after Ctrl-C; it printed:\n{tail}")
        deadline = time.monotonic() + 10
        while session_processes(run.pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = session_processes(run.pid)
        assert not left, f"processes left after Ctrl-C: {left}"
        status = subprocess.run([STACK, "status"], env=env, capture_output=True, text=True)
        assert "running" not in status.stdout, status.stdout
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
        subprocess.run([STACK, "purge"], env=env, capture_output=True, timeout=120)
        subprocess.run(["rm", "-rf", stack_dir])


def _group(pgid):
    """Pids of the processes of a process group."""
    out = subprocess.run(["pgrep", "-g", str(pgid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


@test
def bench_nginx_serves_from_a_private_clone_and_leaves_nothing_behind():
    """scripts/bench's yardstick from a clone under a home of mode 700 (its workers run as
    nobody, who cannot read there), and no nginx process left when it stops or fails to start
    (a killed master leaves its workers running)."""
    private = tempfile.mkdtemp(prefix="fb-private-")  # mode 700, like /root
    clone_bench = os.path.join(private, "clone", "tests", "bench")
    subprocess.run(["mkdir", "-p", os.path.dirname(clone_bench)], check=True)
    subprocess.run(["cp", "-r", os.path.join(ROOT, "tests", "bench"), clone_bench], check=True)
    script = """
import os, socket, subprocess, urllib.request
from nginx_server import Nginx
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
with Nginx(b'{"served": true}', port) as nginx:
    print(urllib.request.urlopen(nginx.url(), timeout=5).read().decode())
    print(nginx.group, len(subprocess.run(["pgrep", "-g", str(nginx.group)], capture_output=True,
                                          text=True).stdout.split()))
# Its workers cannot read the body (as from a private clone before): it starts, never serves.
failing = Nginx(b"{}", port)
os.chmod(failing.dir, 0o700)
try:
    with failing:
        print("served what its workers cannot read")
except SystemExit as e:
    print(failing.group, "refused:", str(e)[:80])
"""
    try:
        r = subprocess.run(["python3", "-c", script], cwd=clone_bench, capture_output=True,
                           text=True, timeout=60)
        lines = r.stdout.splitlines()
        assert r.returncode == 0 and lines[0] == '{"served": true}', r.stdout + r.stderr
        served_group, running = map(int, lines[1].split())
        assert running >= 2, f"nginx's master and workers: {running}"
        failed_group, verdict = lines[2].split(" ", 1)
        assert verdict.startswith("refused: bench: nginx did not start"), lines
        for group in (served_group, int(failed_group)):
            assert not _group(group), f"processes of nginx's group {group} left: {_group(group)}"
    finally:
        subprocess.run(["rm", "-rf", private])


@test
def seed_responses_writes_the_summary_facts_the_service_writes():
    """scripts/seed-responses stores, beside each seeded response, the summary facts the
    service's own code makes of its answers (build/services/responses/summary_facts): the
    summary read from them agrees with one counted from the answers themselves. 24,200 of
    them: the service reads facts in batches of 10,000, each summed up while the next is read."""
    count = 24_200
    out = subprocess.run([os.path.join(ROOT, "scripts", "seed-responses"), "--count", str(count),
                          "--batch", "5000", "--rare-every", "7"],
                         env=dict(os.environ, STACK_DIR=STACK_DIR), capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-800:]
    seeded = json.loads(out.stdout.strip().splitlines()[-1])
    key, link = seeded["api_key"], seeded["link_uuid"]
    answers = []
    for page in range(1, count // 100 + 1):
        r = request("GET", f"links/{link}/responses/?page_size=100&page={page}", key=key)
        assert r.status == 200, r
        answers += [a for resp in json.loads(r.body)["results"] for a in resp["answers"]]
    assert len(answers) == count * 4, len(answers)
    values = {k: Counter() for k in ("nps", "features", "team", "sentiment")}
    actionable = 0
    for a in answers:
        if a["field_key"] == "nps":
            values["nps"][str(a["value"])] += 1
        elif a["field_key"] == "features":
            values["features"].update(a["value"])
        elif a["field_key"] == "team":
            values["team"][a["value"]] += 1
        else:
            values["sentiment"][a["ai_insights"]["sentiment"]] += 1
            actionable += a["ai_insights"]["actionable"]
    summary = json.loads(request("GET", f"links/{link}/summary/", key=key).body)
    stats = {q["field_key"]: q["stats"] for q in summary["questions"]}
    assert summary["response_count"] == count
    assert {k: n for k, n in stats["nps"]["distribution"].items() if n} == dict(values["nps"])
    assert {k: n for k, n in stats["features"]["counts"].items() if n} == dict(values["features"])
    assert {k: n for k, n in stats["team"]["counts"].items() if n} == dict(values["team"])
    assert {k: n for k, n in stats["reason"]["sentiment"].items() if n} == dict(values["sentiment"])
    assert stats["reason"]["actionable"] == actionable
