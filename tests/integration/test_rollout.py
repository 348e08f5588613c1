"""A rollout loses nothing: with the stack's gateway replicas behind nginx (as an ingress stands
in front of pods), reads and writes under wrk load while each replica in turn is stopped
(SIGTERM: it stops accepting, finishes what it holds, exits) and started again get no failed
answer and no connection error."""
import json
import os
import re
import subprocess
import tempfile
import threading
import time

from harness import ENV, ROOT, STACK_DIR, Workspace, free_port, stack, test, wait_until

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
  access_log off;
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


def _wrk(name, url, script, key, connections, seconds, out):
    env = dict(os.environ, BENCH_LUA_DIR=BENCH, BENCH_KEY=key, BENCH_RUN=str(time.time_ns()))
    r = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s",
                        "-s", os.path.join(BENCH, script), url], capture_output=True, text=True, env=env)
    m = re.search(r"BENCH_RESULT (\{.*\})", r.stdout)
    out[name] = json.loads(m.group(1)) if m else {"failed": r.stdout + r.stderr}


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
    assert set(results) == {"reads", "writes"}, results
    for name, r in results.items():
        assert "failed" not in r, r
        lost = r["non2xx"] + r["connect_errors"] + r["read_errors"] + r["write_errors"] + r["timeouts"]
        print(f"    {name}: {r['requests']} requests, {lost} failed")
        assert r["requests"] > 100 and lost == 0, r


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
