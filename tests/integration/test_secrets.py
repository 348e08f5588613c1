"""Secrets never show: API keys, response tokens and webhook secrets appear in no log line,
no /metrics, no error body, and nowhere in PostgreSQL or Redis in clear, whatever the run
before did with them (this module runs last, so what it reads is the whole suite's); nor does
anything of an erased respondent."""
import glob
import json
import os
import re
import socket
import subprocess

from harness import ENV, GATEWAYS, STACK_DIR, Workspace, admin_urls, expect, metrics, request, test

SECRET_SHAPES = {"API key": re.compile(r"sk_live_[A-Za-z0-9]{32,}"),
                 "webhook secret": re.compile(r"whsec_[A-Za-z0-9+/]{40,}")}


def _everything_written():
    texts = {}
    for path in glob.glob(os.path.join(STACK_DIR, "logs", "*.log")):
        with open(path, errors="replace") as f:
            texts[path] = f.read()
    for url in admin_urls():
        texts[f"{url}metrics"] = "\n".join(f"{series} {value}" for series, value in metrics(url).items())
    return texts


def _database_text():
    """Every row of every schema, as pg_dump writes it."""
    r = subprocess.run(["pg_dump", "--data-only", "--no-owner", ENV["DATABASE_URL"]],
                       capture_output=True, timeout=300)
    assert r.returncode == 0, r.stderr[-500:]
    return r.stdout.decode(errors="replace")


def _redis_text():
    """Every key and value in Redis (what it caches: key records, counts, rate windows, kept
    idempotent answers), strings, hashes and sorted sets alike, read over a plain RESP
    connection (one round trip per batch of keys, not a redis-cli per key)."""
    reads = {b"string": [b"GET"], b"hash": [b"HGETALL"], b"zset": [b"ZRANGE", b"0", b"-1"],
             b"set": [b"SMEMBERS"], b"list": [b"LRANGE", b"0", b"-1"]}

    def send(f, commands):
        for args in commands:
            f.write(b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in args))
        f.flush()
        return [reply(f) for _ in commands]

    def reply(f):
        line = f.readline()
        kind, rest = line[:1], line[1:-2]
        if kind == b"$":
            n = int(rest)
            return None if n < 0 else f.read(n + 2)[:-2]
        if kind == b"*":
            return [reply(f) for _ in range(int(rest))]
        return rest  # a status, an error or an integer

    def flat(value):
        if isinstance(value, list):
            return b"\n".join(flat(v) for v in value)
        return value or b""

    texts = []
    with socket.create_connection(("127.0.0.1", int(ENV["REDIS_PORT"])), timeout=10) as sock:
        f = sock.makefile("rwb")
        cursor = b"0"
        while True:
            cursor, keys = send(f, [[b"SCAN", cursor, b"COUNT", b"1000"]])[0]
            types = send(f, [[b"TYPE", k] for k in keys])
            # The command that reads each key's type, with the key after the command's name.
            commands = [reads.get(t, reads[b"string"]) for t in types]
            values = send(f, [c[:1] + [k] + c[1:] for c, k in zip(commands, keys)])
            texts += [flat(k) + b"\n" + flat(v) for k, v in zip(keys, values)]
            if cursor == b"0":
                break
    return b"\n".join(texts).decode(errors="replace")


@test
def no_secret_appears_in_logs_metrics_or_error_bodies():
    ws = Workspace()
    ws.link(slug="secrets", questions=[{"prompt": "Why?", "type": "text", "field_key": "why"}])
    started = ws.start("secrets")
    secret = "whsec_" + "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldCE="
    expect(ws.call("POST", f"workspaces/{ws.uuid}/webhooks/",
                   json={"url": "https://example.com/hook", "events": ["response.submitted"], "secret": secret}), 201)
    # Near misses and misuse: none of the answers may carry what was sent.
    wrong_key = ws.key[:-1] + ("A" if ws.key[-1] != "A" else "B")
    wrong_token = started["token"][:-1] + ("A" if started["token"][-1] != "A" else "B")
    answers = [
        request("GET", "/v1/links/", key=wrong_key),
        request("GET", "/v1/links/", headers={"Authorization": f"Basic {ws.key}"}),
        ws.intake("PUT", f"/i/secrets/responses/{started['uuid']}/answers/why/", token=wrong_token,
                  json={"value": "x"}),
        ws.intake("PUT", f"/i/secrets/responses/{started['uuid']}/answers/nope/", token=started["token"],
                  json={"value": "x"}),
    ]
    for r in answers:
        assert r.status >= 400, r.status
        for value in (ws.key, wrong_key, started["token"], wrong_token, secret):
            assert value not in r.body.decode(errors="replace"), f"an error body ({r.status}) carries a secret"
    written = _everything_written()
    written["PostgreSQL (pg_dump)"] = _database_text()
    written["Redis"] = _redis_text()
    for where, text in written.items():
        for value in (ws.key, wrong_key, started["token"], wrong_token, secret):
            assert value not in text, f"{where} carries a secret this test sent"
        for kind, shape in SECRET_SHAPES.items():
            found = shape.search(text)
            assert not found, f"{where} carries an {kind}: {found.group(0)[:12]}..."


@test
def no_erased_respondent_is_left_anywhere():
    """What an erased respondent wrote (docs/api.md "Erasure and retention") is in no log line, no
    /metrics, nowhere in PostgreSQL or Redis and in no page a gateway keeps: this test's own
    respondent, seen in the database before the erasure, and every respondent test_erasure
    erased (their emails and words have shapes of their own)."""
    from test_erasure import ERASED_EMAIL, ERASED_WORD, _email, _word
    ws = Workspace()
    link = ws.link(slug="forget-me", questions=[{"prompt": "Why?", "type": "text", "field_key": "why"}])
    email, word = _email(), _word()
    ws.complete("forget-me", {"why": f"because {word}"}, email=email)
    kept = ws.complete("forget-me", {"why": "someone else"})
    assert email in _database_text(), "the respondent was not stored: nothing would be checked"
    for gateway in GATEWAYS:  # a page kept by each gateway, with the respondent on it
        for _ in range(2):
            page = expect(ws.call("GET", f"links/{link['uuid']}/responses/", gateway=gateway), 200)
        assert word in json.dumps(page)
    assert expect(ws.call("POST", "responses/erase/", json={"respondent_email": email.upper()}), 200) == {"erased": 1}
    for gateway in GATEWAYS:
        page = expect(ws.call("GET", f"links/{link['uuid']}/responses/", gateway=gateway), 200)
        assert [r["uuid"] for r in page["results"]] == [kept["uuid"]], (gateway, page)
    written = _everything_written()
    written["PostgreSQL (pg_dump)"] = _database_text()
    written["Redis"] = _redis_text()
    for where, text in written.items():
        for shape in (ERASED_EMAIL, ERASED_WORD):
            found = shape.search(text)
            assert not found, f"{where} carries an erased respondent's data: {found.group(0)}"
