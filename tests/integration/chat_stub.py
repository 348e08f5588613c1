"""An OpenAI-compatible chat-completions server for the model-server evaluator's tests: how it
answers depends on a word in the answer's text (see ChatStub.answer), and every request is
recorded with its headers."""
import http.server
import json
import threading
import time

MODEL_INSIGHTS = {"sentiment": "negative", "sentiment_score": -0.5, "actionable": True,
                  "key_topics": ["model topic"], "summary": "Summarised by the model."}


class ChatStub:
    """Words in the answer: good (valid insights), nonsense (prose), slow (answers after
    `slow_seconds`), broken (500), flaky (500 the first time, then good)."""

    def __init__(self, slow_seconds=3.0):
        self.requests = []
        self.slow_seconds = slow_seconds
        self.lock = threading.Lock()
        stub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                with stub.lock:
                    stub.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                status, content = stub.answer(body)
                payload = json.dumps({"id": "chatcmpl-1", "object": "chat.completion",
                                      "choices": [{"index": 0, "finish_reason": "stop",
                                                   "message": {"role": "assistant",
                                                               "content": content}}]}).encode()
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

    def calls(self, word):
        with self.lock:
            return [r for r in self.requests if word in r["body"]["messages"][1]["content"]]

    def answer(self, body):
        text = body["messages"][1]["content"]
        if "slow" in text:
            time.sleep(self.slow_seconds)
            return 200, json.dumps(MODEL_INSIGHTS)
        if "broken" in text:
            return 500, "error"
        if "flaky" in text and len(self.calls("flaky")) == 1:
            return 500, "error"
        if "nonsense" in text:
            return 200, "The customer seems unhappy, I think."
        return 200, json.dumps(MODEL_INSIGHTS)

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
