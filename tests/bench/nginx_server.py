"""nginx serving fixed bytes at /v1/w0/, the bench's yardstick (W0, W7's twin).

Its files live in a directory of their own under the system's temporary directory, readable by
all: started as root, nginx's workers run as `nobody`, who cannot read a clone under a home
directory of mode 700. It runs in a process group of its own, and every way out (a normal
stop, a failed start, an exception, the bench interrupted) ends the whole group: a killed
master leaves its workers running."""
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request


class Nginx:
    def __init__(self, body, port):
        self.port = port
        self.dir = tempfile.mkdtemp(prefix="feedback-bench-nginx-")
        os.chmod(self.dir, 0o755)
        body_file = os.path.join(self.dir, "w0.json")
        with open(body_file, "wb") as f:
            f.write(body)
        os.chmod(body_file, 0o644)
        self.conf = os.path.join(self.dir, "nginx.conf")
        with open(self.conf, "w") as f:
            f.write(f"""
worker_processes auto;
pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  keepalive_requests 1000000;
  server {{
    listen 127.0.0.1:{port};
    location = /v1/w0/ {{
      default_type application/json;
      root {self.dir};
      try_files /w0.json =404;
    }}
  }}
}}
""")
        self.proc = None
        self.group = None  # the process group nginx and its workers run in, once started

    def url(self):
        return f"http://127.0.0.1:{self.port}/v1/w0/"

    def __enter__(self):
        self.proc = subprocess.Popen(["nginx", "-c", self.conf, "-p", self.dir, "-g", "daemon off;"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     start_new_session=True)
        self.group = self.proc.pid
        for _ in range(100):
            if self.proc.poll() is not None:
                break
            try:
                with urllib.request.urlopen(self.url(), timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.05)
        problem = self._errors()
        self.stop()
        raise SystemExit(f"bench: nginx did not start: {problem}")

    def __exit__(self, *exc):
        self.stop()

    def _errors(self):
        try:
            with open(os.path.join(self.dir, "error.log")) as f:
                return f.read()[-500:]
        except OSError:
            return "(no error log)"

    def stop(self):
        """A graceful stop, then the whole process group killed, whatever is left of it."""
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGQUIT)
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    pass
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            if self.proc.poll() is None:
                self.proc.wait(timeout=10)
            self.proc.stderr.close()
            self.proc = None
        shutil.rmtree(self.dir, ignore_errors=True)
