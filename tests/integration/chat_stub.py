"""An OpenAI-compatible chat-completions server for the model-server evaluator's tests: how it
answers depends on a word in the answer's text (see ChatStub.answer), and every request is
recorded with its headers."""
import json
import time

from stub_server import StubServer

MODEL_INSIGHTS = {"sentiment": "negative", "sentiment_score": -0.5, "actionable": True,
                  "key_topics": ["model topic"], "summary": "Summarised by the model."}


class ChatStub(StubServer):
    """Words in the answer: good (valid insights), nonsense (prose), slow (answers after
    `slow_seconds`), broken (500), flaky (500 the first time, then good)."""

    def __init__(self, slow_seconds=3.0):
        self.slow_seconds = slow_seconds
        super().__init__()

    def answer_post(self, path, headers, body):
        body = json.loads(body)
        self.record({"path": path, "headers": dict(headers), "body": body})
        status, content = self.answer(body)
        return status, json.dumps({"id": "chatcmpl-1", "object": "chat.completion",
                                   "choices": [{"index": 0, "finish_reason": "stop",
                                                "message": {"role": "assistant", "content": content}}]})

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
