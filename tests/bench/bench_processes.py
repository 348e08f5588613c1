"""Processes of the bench's own beside the stack's (the rows that compare settings run on two
of them, alike but for those settings), and what every row needs of a stack: its settings and
workspaces made on it."""
import json
import os
import socket
import subprocess
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The environment names of each binary's API and admin ports.
PORTS = {"gateway": ("GATEWAY_PORT", "ADMIN_PORT"),
         "responses": ("RESPONSES_PORT", "RESPONSES_ADMIN_PORT")}


def stack_env(stack_dir):
    """The settings a stack wrote for its callers (STACK_DIR/stack.env)."""
    env = {}
    with open(os.path.join(stack_dir, "stack.env")) as f:
        for line in f:
            if "=" in line:
                k, v = line.strip().split("=", 1)
                env[k] = v.strip('"')
    return env


def workspace(ctl, name, plan="enterprise", rate_limit="1000000000"):
    """A workspace made with feedbackctl (`ctl`: its command line), its key and host; the
    default rate limit never throttles."""
    args = ["workspace", "create", "--name", f"{name}-{int(time.time())}", "--plan", plan]
    if rate_limit:
        args += ["--rate-limit", rate_limit]
    made = subprocess.run(ctl + args, capture_output=True, text=True, check=True)
    return json.loads(made.stdout)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class BenchProcess:
    """One more `binary` on the stack's settings (STACK_DIR/services.env) with `settings`
    added, on free ports; ready when its admin port says so. `binary_dir`: a directory holding
    the binary of another build (e.g. before a change) instead of build/services/<binary>/."""

    def __init__(self, binary, stack_dir, out_dir, binary_dir=None, **settings):
        with open(os.path.join(stack_dir, "services.env")) as f:
            env = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
        self.port, admin = free_port(), free_port()
        port_name, admin_name = PORTS[binary]
        env.update({port_name: str(self.port), admin_name: str(admin)}, **settings)
        self.log = open(os.path.join(out_dir, f"{binary}-{self.port}.log"), "w")
        path = os.path.join(binary_dir or os.path.join(ROOT, "build", "services", binary), binary)
        self.proc = subprocess.Popen([path],
                                     env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self.pid = self.proc.pid
        for _ in range(400):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{admin}/readyz", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise SystemExit(f"bench: a bench {binary} did not become ready")

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=30)
        self.log.close()
