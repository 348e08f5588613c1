"""Wire rules: trailing slash, 404/405/413/415/431, JSON checks, request ids, timeouts."""
import json
import time

from harness import Workspace, expect, raw_exchange, request, test, ENV

UUID = "123e4567-e89b-42d3-a456-426614174000"


@test
def trailing_slash_301_before_auth_keeps_query():
    for method in ("GET", "POST", "DELETE"):
        r = request(method, "links?page=2&page_size=5")
        expect(r, 301)
        assert r.header("Location") == "/v1/links/?page=2&page_size=5", r.header("Location")
        assert r.header("X-Request-Id")
    r = request("GET", f"tokens/{UUID}")
    expect(r, 301)
    assert r.header("Location") == f"/v1/tokens/{UUID}/"


@test
def unknown_paths_404_with_null_code():
    ws = Workspace()
    for path in ("no-such-thing/", "no-such-thing", "links/a/b/c/", "/v2/links/", "/"):
        expect(ws.call("GET", path), 404, None)
    expect(request("GET", "no-such-thing/"), 404, None)


@test
def malformed_uuid_404():
    ws = Workspace()
    for segment in ("not-a-uuid", UUID.upper(), UUID.replace("-", "")):
        expect(ws.call("GET", f"links/{segment}/"), 404, None)
        expect(ws.call("DELETE", f"tokens/{segment}/"), 404, None)


@test
def method_not_allowed_405_with_allow():
    ws = Workspace()
    r = ws.call("PUT", "links/", json={"name": "x"})
    expect(r, 405, "METHOD_NOT_ALLOWED")
    assert set(m.strip() for m in r.header("Allow").split(",")) == {"GET", "POST"}, r.header("Allow")
    r = ws.call("GET", f"tokens/{UUID}/")
    expect(r, 405, "METHOD_NOT_ALLOWED")
    assert r.header("Allow") == "DELETE"


@test
def head_answers_get_without_a_body_and_the_connection_stays_usable():
    """Found by the gateway_request fuzz target: HEAD was answered 405 with a JSON body, which a
    client reads as the start of the next answer on a kept-alive connection."""
    ws = Workspace()
    link = ws.link(name="Head")
    get = expect(ws.call("GET", f"links/{link['uuid']}/"), 200)
    auth = f"Authorization: Bearer {ws.key}\r\n"
    raw = raw_exchange((f"HEAD /v1/links/{link['uuid']}/ HTTP/1.1\r\nHost: a\r\n{auth}\r\n"
                        f"HEAD /v1/nothing-here/ HTTP/1.1\r\nHost: a\r\n\r\n"
                        f"GET /v1/links/{link['uuid']}/ HTTP/1.1\r\nHost: a\r\n{auth}"
                        "Connection: close\r\n\r\n").encode())

    def length_of(header):
        line = [h for h in header.split(b"\r\n") if h.lower().startswith(b"content-length:")][0]
        return int(line.split(b":")[1])

    first, rest = raw.split(b"\r\n\r\n", 1)
    assert first.startswith(b"HTTP/1.1 200"), raw[:300]
    # No body after the header: the next answer follows at once.
    assert rest.startswith(b"HTTP/1.1 404"), rest[:300]
    second, rest = rest.split(b"\r\n\r\n", 1)
    assert length_of(second) > 0 and rest.startswith(b"HTTP/1.1 200"), rest[:300]
    third, body = rest.split(b"\r\n\r\n", 1)
    # HEAD's Content-Length is the one GET sends.
    assert length_of(first) == length_of(third) == len(body), (first, third)
    assert json.loads(body)["uuid"] == link["uuid"] == get["uuid"]


@test
def unsupported_media_type_415_creates_nothing():
    ws = Workspace()
    before = expect(ws.call("GET", "tokens/"), 200)["count"]
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "application/jsonx"):
        r = ws.call("POST", "tokens/", body=b'{"name": "x"}', headers={"Content-Type": ctype})
        expect(r, 415, "UNSUPPORTED_MEDIA_TYPE")
    r = ws.call("POST", "tokens/", body=b'{"name": "x"}')
    expect(r, 415, "UNSUPPORTED_MEDIA_TYPE")
    r = ws.call("POST", "tokens/", body=b'{"name": "charset ok"}',
                headers={"Content-Type": "application/json; charset=utf-8"})
    expect(r, 201)
    assert expect(ws.call("GET", "tokens/"), 200)["count"] == before + 1


@test
def body_limit_is_exactly_one_mebibyte():
    ws = Workspace()
    prefix, suffix = b'{"name": "', b'"}'
    exact = prefix + b"x" * (1024 * 1024 - len(prefix) - len(suffix)) + suffix
    assert len(exact) == 1024 * 1024
    # Exactly 1 MiB is read and judged on its content (name too long), not on its size.
    expect(ws.call("POST", "tokens/", body=exact, headers={"Content-Type": "application/json"},
                   timeout=30), 400, "VALIDATION_ERROR")
    over = prefix + b"x" * (1024 * 1024 + 1 - len(prefix) - len(suffix)) + suffix
    r = ws.call("POST", "tokens/", body=over, timeout=30,
                headers={"Content-Type": "application/json", "X-Request-Id": "big-one"})
    expect(r, 413, "PAYLOAD_TOO_LARGE")
    assert r.header("X-Request-Id") == "big-one", r.headers
    huge = prefix + b"x" * (8 * 1024 * 1024) + suffix
    expect(ws.call("POST", "links/", body=huge, headers={"Content-Type": "application/json"},
                   timeout=30), 413, "PAYLOAD_TOO_LARGE")
    assert expect(ws.call("GET", "links/"), 200)["count"] == 0


@test
def invalid_json_400():
    ws = Workspace()
    deep = b'{"name": "x", "settings": ' + b"[" * 40 + b"]" * 40 + b"}"
    for body in (b'{"name": "x",', b'{"name": "x"} {"name": "y"}', b"{'name': 'x'}",
                 b'{"name": "\xff\xfe"}', deep, b"\x00"):
        r = ws.call("POST", "tokens/", body=body, headers={"Content-Type": "application/json"})
        expect(r, 400, "INVALID_JSON")


@test
def body_must_be_an_object():
    ws = Workspace()
    for body in (b"[]", b'"name"', b"42", b"null"):
        r = ws.call("POST", "tokens/", body=body, headers={"Content-Type": "application/json"})
        expect(r, 400, "VALIDATION_ERROR")


@test
def request_id_echoed_or_generated_on_every_answer():
    ws = Workspace()
    r = ws.call("GET", "tokens/", headers={"X-Request-Id": "trace-abc-123"})
    assert r.header("X-Request-Id") == "trace-abc-123"
    for r in (ws.call("GET", "tokens/"), request("GET", "tokens/"), request("GET", "nowhere/"),
              ws.call("POST", "tokens/", body=b"{", headers={"Content-Type": "application/json"})):
        rid = r.header("X-Request-Id")
        assert rid and len(rid) == 36, r.headers
        if r.status >= 400:
            assert r.json["error"]["request_id"] == rid
    a, b = ws.call("GET", "tokens/"), ws.call("GET", "tokens/")
    assert a.header("X-Request-Id") != b.header("X-Request-Id")


@test
def oversized_headers_431():
    r = request("GET", "tokens/", headers={"X-Padding": "a" * (20 * 1024)})
    assert r.status == 431, r
    assert r.json["error"]["code"] == "VALIDATION_ERROR"
    assert r.header("X-Request-Id") == r.json["error"]["request_id"], r.headers


@test
def malformed_http_400_and_closed():
    reply = raw_exchange(b"GARBAGE\r\n\r\n")
    assert reply.startswith(b"HTTP/1.1 400"), reply[:100]


@test
def slow_client_is_disconnected():
    timeout_ms = int(ENV.get("GATEWAY_READ_TIMEOUT_MS", "1500"))
    started = time.monotonic()
    reply = raw_exchange(b"GET /v1/tokens/ HTTP/1.1\r\nHost: x\r\n", timeout=timeout_ms / 1000 + 10)
    elapsed = time.monotonic() - started
    assert reply == b"", reply[:100]
    assert elapsed < timeout_ms / 1000 + 5, f"connection held {elapsed:.1f}s"


@test
def keep_alive_serves_several_requests_on_one_connection():
    ws = Workspace()
    one = (f"GET /v1/tokens/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ws.key}\r\n\r\n").encode()
    last = (f"GET /v1/tokens/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ws.key}\r\n"
            "Connection: close\r\n\r\n").encode()
    reply = raw_exchange(one + one + last)
    assert reply.count(b"HTTP/1.1 200 OK") == 3, reply[:300]


@test
def bytes_that_are_not_utf8_in_a_query_a_header_or_a_file_name_are_refused_cleanly():
    """Found by the gateway_request fuzz target: such bytes went on into protobuf strings, which
    the services could not read (an error 500)."""
    import media_files
    ws = Workspace()
    link = ws.link(slug="bytes", questions=[
        {"prompt": "Why?", "type": "text", "field_key": "why"},
        {"prompt": "File", "type": "file_upload", "field_key": "doc",
         "configuration": {"allowed_types": ["image/png"], "max_size_mb": 1}}])
    for path in (f"links/{link['uuid']}/responses/?search=%FF", "responses/?ordering=-x%D6",
                 "links/?search=%C3"):
        expect(ws.call("GET", path), 400, "VALIDATION_ERROR")
    st = ws.start("bytes")
    r = ws.intake("PUT", f"/i/bytes/responses/{st['uuid']}/answers/why/",
                  headers={"X-Response-Token": "\xff\xfe"},  # sent as those two bytes
                  json={"value": "x"})
    expect(r, 404, None)
    assert r.json["error"]["message"] == "No such response.", r
    upload = f"/i/bytes/responses/{st['uuid']}/files/doc/"
    r = ws.intake("POST", upload, token=st["token"], body=media_files.png(),
                  headers={"Content-Type": "image/png", "X-File-Name": "%FF%FE.png"})
    expect(r, 400, "VALIDATION_ERROR")
    r = ws.intake("POST", upload, token=st["token"], body=media_files.png(),
                  headers={"Content-Type": "image/png\xe9"})
    expect(r, 400, "VALIDATION_ERROR")
    expect(ws.intake("POST", upload, token=st["token"], body=media_files.png(),
                     headers={"Content-Type": "image/png", "X-File-Name": "caf%C3%A9.png"}), 200)


@test
def an_answer_before_a_close_arrives_whole_even_with_unread_requests_behind_it():
    """Found by the gateway_request fuzz target: an answer that closes the connection (HTTP/1.0,
    Connection: close) was followed by a plain close while the client's next requests were still
    unread, so the kernel reset the connection and the client lost the end of the answer."""
    import socket
    big = request("GET", "/static/redoc.standalone.js")
    assert big.status == 200 and len(big.body) > 500_000, big.status
    host, port = ENV["GATEWAY_ADDR"].rsplit(":", 1)
    for first in (b"GET /static/redoc.standalone.js HTTP/1.0\r\n\r\n",
                  b"GET /static/redoc.standalone.js HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"):
        with socket.create_connection((host, int(port)), timeout=10) as s:
            s.sendall(first + b"GET /v1/links/ HTTP/1.1\r\nHost: a\r\n\r\n" * 50)
            received = b""
            while True:
                chunk = s.recv(65536)  # a reset raises here
                if not chunk:
                    break
                received += chunk
        head, body = received.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1."), head[:100]
        assert body == big.body, f"{len(body)} of {len(big.body)} bytes arrived"
