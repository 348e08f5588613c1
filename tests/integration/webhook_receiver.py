"""An HTTPS webhook receiver for the integration tests and the bench: a throwaway CA (the
stack trusts it through WEBHOOK_CA_BUNDLE), endpoints that answer as told (statuses, a delay,
or never), and every delivery recorded with the moment it arrived.

python3 webhook_receiver.py make-ca DIR   writes DIR/ca.pem, ca.key, server.pem, server.key
(the layout the conformance suite's receiver reuses through RECEIVER_CERT_DIR)."""
import base64
import hashlib
import hmac
import http.server
import json
import os
import socket
import ssl
import subprocess
import sys
import threading
import time
import uuid

CERT_NAMES = "DNS:localhost,IP:127.0.0.1,IP:::1,DNS:rebind.feedback.test"


def make_ca(outdir):
    """The CA and a server certificate for the names above, unless they exist."""
    os.makedirs(outdir, exist_ok=True)
    p = {k: os.path.join(outdir, f) for k, f in
         (("ca", "ca.pem"), ("ca_key", "ca.key"), ("cert", "server.pem"), ("key", "server.key"))}
    if all(os.path.exists(v) for v in p.values()):
        return p

    def openssl(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "30",
            "-keyout", p["ca_key"], "-out", p["ca"], "-subj", "/CN=Feedback Test CA",
            "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    csr, ext = os.path.join(outdir, "server.csr"), os.path.join(outdir, "server.ext")
    with open(ext, "w") as f:
        f.write(f"basicConstraints=critical,CA:FALSE\nextendedKeyUsage=serverAuth\n"
                f"subjectAltName={CERT_NAMES}\n")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-sha256", "-keyout", p["key"], "-out", csr,
            "-subj", "/CN=localhost")
    openssl("x509", "-req", "-in", csr, "-CA", p["ca"], "-CAkey", p["ca_key"], "-CAcreateserial",
            "-days", "30", "-sha256", "-extfile", ext, "-out", p["cert"])
    return p


class Delivery:
    def __init__(self, path, headers, body):
        self.path, self.headers, self.body, self.at = path, headers, body, time.time()
        # Set once the receiver has answered it with a 2xx: the sender then knows it arrived.
        self.answered = False

    @property
    def json(self):
        return json.loads(self.body)


class Endpoint:
    """answers: statuses (or (status, headers) pairs) for the first deliveries, then 200.
    hang: never answer. delay: seconds to wait before answering."""

    def __init__(self, receiver, answers=(), hang=False, delay=0.0):
        self.id = uuid.uuid4().hex
        self.url = f"https://{receiver.host}:{receiver.port}/hook/{self.id}"
        self.answers, self.hang, self.delay = list(answers), hang, delay
        self.deliveries = []
        self.cond = threading.Condition()

    def record(self, d):
        with self.cond:
            self.deliveries.append(d)
            answer = self.answers.pop(0) if self.answers else 200
            self.cond.notify_all()
        return answer if isinstance(answer, tuple) else (answer, {})

    def wait(self, n, timeout=10.0, pred=None):
        deadline = time.time() + timeout
        with self.cond:
            while True:
                got = [d for d in self.deliveries if pred is None or pred(d)]
                left = deadline - time.time()
                if len(got) >= n or left <= 0:
                    return got
                self.cond.wait(left)


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        ep = self.server.owner.endpoints.get(self.path.rsplit("/", 1)[-1])
        if ep is None:
            return self._answer(404, {})
        d = Delivery(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        status, headers = ep.record(d)
        if ep.hang:
            if not self.server.owner.hold(self.connection):
                self.close_connection = True
                return
            time.sleep(3600)
            return
        if ep.delay:
            time.sleep(ep.delay)
        self._answer(status, headers)
        d.answered = 200 <= status < 300

    def _answer(self, status, headers):
        data = b'{"ok": true}'
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 512


class Receiver:
    def __init__(self, cert_dir, host="127.0.0.1", port=0):
        files = make_ca(cert_dir)
        self.host = host
        self.endpoints = {}
        self.hung = []
        self.hung_lock = threading.Lock()
        self.stopping = False
        self.connections = 0
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(files["cert"], files["key"])
        self.server = _Server(("127.0.0.1", port), _Handler)
        self.server.owner = self
        self.server.socket = ctx.wrap_socket(self.server.socket, server_side=True,
                                             do_handshake_on_connect=False)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def endpoint(self, **kw):
        ep = Endpoint(self, **kw)
        self.endpoints[ep.id] = ep
        return ep

    def hold(self, connection):
        """Keeps a delivery's connection unanswered until release_hung(); False once the receiver
        is stopping: a request still being read then would otherwise hang its sender until its
        timeout."""
        with self.hung_lock:
            if not self.stopping:
                self.hung.append(connection)
            return not self.stopping

    def release_hung(self):
        """Closes the connections of deliveries an endpoint never answered."""
        with self.hung_lock:
            hung, self.hung = self.hung, []
        for c in hung:
            try:
                c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def stop(self):
        with self.hung_lock:
            self.stopping = True
        self.server.shutdown()
        self.release_hung()
        self.server.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def signing_key(secret):
    return base64.b64decode(secret[6:]) if secret.startswith("whsec_") else secret.encode()


def signature_ok(secret, d):
    msg = f"{d.headers['webhook-id']}.{d.headers['webhook-timestamp']}.".encode() + d.body
    mac = base64.b64encode(hmac.new(signing_key(secret), msg, hashlib.sha256).digest()).decode()
    return any(s == f"v1,{mac}" for s in d.headers["webhook-signature"].split())


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "make-ca":
        print(make_ca(sys.argv[2])["ca"])
    else:
        sys.exit("usage: webhook_receiver.py make-ca DIR")
