"""An HTTP server on a free loopback port for the tests of clients of OpenAI-compatible servers
(chat_stub.py, speech_stub.py): each POST's answer is what the subclass's answer_post gives,
and every request is recorded."""
import http.server
import threading


class StubServer:
    """Subclasses define answer_post(path, headers, body) -> (status, JSON text), which runs on
    the request's own thread and may sleep; what it records goes in self.requests."""

    def __init__(self):
        self.requests = []
        self.lock = threading.Lock()
        stub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status, content = stub.answer_post(self.path, self.headers, body)
                payload = content.encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:
                    pass  # the client gave up (a timeout)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def record(self, request):
        with self.lock:
            self.requests.append(request)

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
