"""A rollout loses nothing: with the stack's gateway replicas behind nginx (as an ingress stands
in front of pods), reads and writes under wrk load while each replica in turn is stopped
(SIGTERM: it stops accepting, finishes what it holds, exits) and started again get no failed
answer and no connection error; the same for two replicas of every service behind a gateway
that balances its gRPC calls over them."""
import contextlib
import json
import os
import re
import signal
import subprocess
import tempfile
import threading
import time
import urllib.request
import uuid

from harness import (ENV, ROOT, STACK_DIR, ExtraProcess, Workspace, expect, free_port,
                     metrics, sql, stack, test, wait_until)
from test_webhooks import _receiver

BENCH = os.path.join(ROOT, "tests", "bench")


def _nginx(port, gateways, conf_dir):
    servers = "\n".join(f"    server {g} max_fails=0;" for g in gateways)
    conf = os.path.join(conf_dir, "nginx.conf")
    with open(conf, "w") as f:
        f.write(f"""
worker_processes 1;
pid {conf_dir}/nginx.pid;
error_log {conf_dir}/error.log warn;
events {{ worker_connections 1024; }}
http {{
  # Only what failed, with the replica and the status it gave: what a failed run prints.
  map $status $failed {{ ~^[23] 0; default 1; }}
  log_format failed '$time_iso8601 $request $status upstream=$upstream_addr '
                    'upstream_status=$upstream_status';
  access_log {conf_dir}/failed.log failed if=$failed;
  upstream gateways {{
{servers}
    keepalive 32;
  }}
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://gateways;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      # A replica that refuses the connection (stopped) or drops it before answering: the
      # next one is asked (writes only when the request never reached the first).
      proxy_next_upstream error timeout;
      proxy_connect_timeout 1s;
    }}
  }}
}}
""")
    proc = subprocess.Popen(["nginx", "-c", conf, "-p", conf_dir, "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return proc


def _wrk(name, url, script, key, connections, seconds, out, stop=None, **settings):
    """wrk for `seconds`, or until `stop` (an Event) is set: then SIGINT, after which wrk still
    reports what it sent."""
    env = dict(os.environ, BENCH_LUA_DIR=BENCH, BENCH_KEY=key, BENCH_RUN=str(time.time_ns()), **settings)
    proc = subprocess.Popen(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s",
                             "-s", os.path.join(BENCH, script), url],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if stop is not None:
        stop.wait(seconds)
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=seconds + 30)
    m = re.search(r"BENCH_RESULT (\{.*\})", stdout)
    out[name] = json.loads(m.group(1)) if m else {"failed": stdout + stderr}


@test
def restarting_each_gateway_replica_under_load_fails_nothing():
    gateways = ENV["GATEWAY_ADDRS"].split(",")
    assert len(gateways) >= 2, "the stack runs one gateway: GATEWAY_REPLICAS=2 scripts/stack up"
    # A limit the load stays under: every answer must be a success.
    ws = Workspace(rate_limit=100000000)
    link = ws.link(slug="rollout", questions=[{"prompt": "Hi", "type": "text", "field_key": "hi"}])
    port = free_port()
    with tempfile.TemporaryDirectory() as conf_dir:
        nginx = _nginx(port, gateways, conf_dir)
        try:
            base = f"http://127.0.0.1:{port}"
            wait_until(lambda: subprocess.run(["curl", "-sf", "-o", "/dev/null", f"{base}/v1/links/{link['uuid']}/",
                                               "-H", f"Authorization: Bearer {ws.key}"]).returncode == 0,
                       what="nginx in front of the gateways")
            results = {}
            reads = threading.Thread(target=_wrk, args=("reads", f"{base}/v1/links/{link['uuid']}/", "get.lua", ws.key,
                                                        16, 24, results))
            writes = threading.Thread(target=_wrk, args=("writes", f"{base}/v1/links/", "create_link.lua", ws.key, 2, 24,
                                                         results))
            reads.start()
            writes.start()
            time.sleep(4)
            names = ["gateway"] + [f"gateway-{i}" for i in range(2, len(gateways) + 1)]
            for name in names:
                stack("stop-service", name)
                time.sleep(1)
                stack("start-service", name)
                time.sleep(4)
            reads.join()
            writes.join()
        finally:
            nginx.terminate()
            nginx.wait(timeout=10)
            # Refused connections are the stopped replica's, retried on the other one.
            nginx_log = [f"nginx {log}: {line.rstrip()}" for log in ("failed.log", "error.log")
                         for line in _read_lines(os.path.join(conf_dir, log)) if "connect() failed" not in line]
    _assert_nothing_failed(results, {"reads", "writes"}, nginx_log[:20])


def _read_lines(path):
    with contextlib.suppress(FileNotFoundError), open(path) as f:
        return f.readlines()
    return []


def _assert_nothing_failed(results, expected, diagnostics=()):
    assert set(results) == expected, results
    for name, r in sorted(results.items()):
        assert "failed" not in r, r
        lost = r["non2xx"] + r["connect_errors"] + r["read_errors"] + r["write_errors"] + r["timeouts"]
        print(f"    {name}: {r['requests']} requests, {lost} failed")
        assert r["requests"] > 100 and lost == 0, "\n".join([str(r), *diagnostics])


SERVICES = ("tokens", "links", "responses", "webhooks")


@test
def restarting_each_service_replica_under_load_fails_nothing():
    """Two replicas of every service (the stack's and one more), a gateway that balances over
    both (TOKENS_ADDR=ip:port,ip:port ...), and load that reaches each service; every replica
    in turn is stopped with SIGTERM and started again."""
    ws = Workspace(rate_limit=100000000)
    with open(os.path.join(BENCH, "link_5_questions.json")) as f:
        link = ws.link(slug="service-rollout", **json.load(f))
    # At most; the load stops two seconds after the last restart.
    seconds = 300
    with contextlib.ExitStack() as replicas:
        second = {name: replicas.enter_context(ExtraProcess(name, f"{name}-rollout")) for name in SERVICES}
        targets = {f"{name.upper()}_ADDR": f"{ENV[name.upper() + '_ADDR']},{second[name].address}"
                   for name in SERVICES}
        gateway = replicas.enter_context(ExtraProcess("gateway", "gateway-rollout", INTAKE_RATE_LIMIT="100000000",
                                                      **targets))
        base = f"http://127.0.0.1:{gateway.port}"
        loads = {  # name: (path, script, connections, settings); every service gets calls
            "tokens reads": ("/v1/tokens/", "get.lua", 2, {}),
            "link reads": (f"/v1/links/{link['uuid']}/", "get.lua", 2, {"BENCH_NO_CACHE": "1"}),
            "link creates": ("/v1/links/", "create_link.lua", 2, {}),
            "submissions": (f"/i/{link['slug']}/submit/", "intake_submit.lua", 2, {"BENCH_HOST": ws.info["host"]}),
            "response reads": (f"/v1/links/{link['uuid']}/responses/?limit=5", "get.lua", 2, {"BENCH_NO_CACHE": "1"}),
            "webhook reads": (f"/v1/workspaces/{ws.uuid}/webhooks/", "get.lua", 2, {}),
        }
        results = {}
        stop = threading.Event()
        threads = [threading.Thread(target=_wrk, args=(name, base + path, script, ws.key, connections, seconds,
                                                       results, stop), kwargs=settings)
                   for name, (path, script, connections, settings) in loads.items()]
        for t in threads:
            t.start()
        load_started = time.monotonic()
        time.sleep(3)
        for name in SERVICES:
            stack("stop-service", name)
            time.sleep(0.5)
            stack("start-service", name)
            wait_until(lambda: urllib.request.urlopen(f"{ENV[name.upper() + '_ADMIN_URL']}readyz", timeout=2).status == 200,
                       what=f"{name} back")
            time.sleep(1.5)
            second[name].restart(pause=0.5)
            time.sleep(2)
        restarts_took = time.monotonic() - load_started
        stop.set()
        for t in threads:
            t.join()
        # Both replicas of every service served calls of the load.
        calls = {name: sum(v for series, v in metrics(second[name].admin_url).items()
                           if series.startswith("rpc_total{"))
                 for name in SERVICES}
    print(f"    restarts took {restarts_took:.1f} s; calls to the restarted second replicas: {calls}")
    assert all(calls.values()), f"a second replica got no call after its restart: {calls}"
    _assert_nothing_failed(results, set(loads))


@test
def each_service_migrates_and_exits_for_the_migrations_job():
    with open(os.path.join(STACK_DIR, "services.env")) as f:
        env = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
    for name in ("tokens", "links", "responses", "webhooks"):
        run_env = dict(env, MIGRATE_ONLY="true")
        # Ports of their own: the stack's services hold theirs.
        run_env[f"{name.upper()}_PORT"] = str(free_port())
        run_env[f"{name.upper()}_ADMIN_PORT"] = str(free_port())
        r = subprocess.run([os.path.join(ROOT, "build", "services", name, name)], env=run_env,
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, (name, r.stdout[-500:], r.stderr[-500:])
        assert '"event":"migrated"' in r.stdout, (name, r.stdout[-500:])


# The previous version's outbox statements, as its pods still run them during a rollout:
# its responses services write events through `responses.outbox`, its dispatchers take them
# there. That is now a view of the rows that hold one event (responses/007).
PREVIOUS_WRITE = (
    "WITH events AS (INSERT INTO responses.outbox (event_id, type, workspace_uuid, link_uuid,"
    " response_uuid, payload) VALUES ('{event}', 'response.submitted', '{workspace}', '{link}',"
    " '{response}', '{{\"type\":\"response.submitted\"}}')) SELECT 1")
PREVIOUS_FAN_OUT = (
    "WITH taken AS ("
    "  DELETE FROM responses.outbox WHERE id IN ("
    "    SELECT o.id FROM responses.outbox o WHERE NOT EXISTS ("
    "      SELECT 1 FROM links.webhook_changes c WHERE c.link_uuid = o.link_uuid)"
    "    ORDER BY o.id LIMIT 500 FOR UPDATE SKIP LOCKED)"
    "  RETURNING id, event_id, type, workspace_uuid, link_uuid, payload, created_at)"
    " SELECT string_agg(event_id::text, ',') FROM taken")


def _psql(*statements):
    """Runs statements in one session; returns what psql printed (notifications included)."""
    r = subprocess.run(["psql", ENV["DATABASE_URL"], "-XAtq"], input=";\n".join(statements) + ";\n",
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0 and not r.stderr, r.stderr
    return r.stdout


@test
def the_previous_versions_outbox_statements_keep_working_and_never_take_a_one_shot_row():
    ws = Workspace()
    link = expect(ws.call("POST", "links/", json={"name": "Rollout", "slug": "rollout", "questions": [
        {"prompt": "Why?", "type": "text", "field_key": "why"}]}), 201)
    with _receiver() as rx:
        endpoint = rx.endpoint()
        expect(ws.call("POST", f"workspaces/{ws.uuid}/webhooks/", json={
            "url": endpoint.url, "events": ["response.started", "response.submitted"]}), 201)
        stack("stop-service", "webhooks")  # the events stay in the outbox meanwhile
        try:
            started = ws.start("rollout")
            one_shot = ws.complete("rollout", {"why": "both events in one row"})
            written = str(uuid.uuid4())
            printed = _psql("LISTEN responses_outbox", PREVIOUS_WRITE.format(
                event=written, workspace=ws.uuid, link=link["uuid"], response=uuid.uuid4()))
            assert 'Asynchronous notification "responses_outbox"' in printed, printed
            rows = sql(f"SELECT event_id, started_event_id FROM responses.outbox_events"
                       f" WHERE link_uuid = '{link['uuid']}' ORDER BY id")
            assert len(rows) == 3 and rows[1][1], rows  # the start, the one-shot row, the one written
            taken = _psql("BEGIN", PREVIOUS_FAN_OUT, "ROLLBACK").split()[0].split(",")
            assert sorted(taken) == sorted([rows[0][0], written]), (taken, rows)
        finally:
            stack("start-service", "webhooks")
        # This version's dispatcher takes them all, the one-shot row as its two events.
        got = endpoint.wait(4, 15)
        ids = {d.headers["webhook-id"] for d in got}
        assert ids == {rows[0][0], rows[1][1], rows[1][0], written}, (ids, rows)
        about = {d.headers["webhook-id"]: d.json for d in got}
        assert about[rows[1][1]]["type"] == "response.started"
        assert about[rows[1][1]]["data"]["response"]["uuid"] == one_shot["uuid"]
        assert about[rows[0][0]]["data"]["response"]["uuid"] == started["uuid"]
