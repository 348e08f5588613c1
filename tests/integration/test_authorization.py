"""Object-level authorisation, generated from the gateway's own route table (its admin port's
GET /routes), so that a route added later is covered without being named here: every route
that takes an identifier, called by another workspace with workspace A's identifiers (its key,
its host, its response tokens), answers 404 exactly as it does for identifiers that exist
nowhere, and no answer carries anything of A's; routes without identifiers (lists, creates)
show the caller only its own workspace. A parameter this test does not know how to fill fails
it: say here what the new route's identifier names."""
import json
import urllib.request
import uuid

import media_files
from harness import ENV, Workspace, expect, intake, request, test, wait_until

QUESTIONS = [
    {"prompt": "Why?", "type": "text", "field_key": "why"},
    {"prompt": "Say it", "type": "voice", "field_key": "said"},
    {"prompt": "Attach", "type": "file_upload", "field_key": "doc",
     "configuration": {"allowed_types": ["image/png"], "max_size_mb": 1}},
]
SETTINGS = {"tts_enabled": True, "live_transcription": True}
# What each identifier names, by the literal segment before it.
KINDS = {"links": "link", "responses": "response", "tokens": "token", "workspaces": "workspace",
         "webhooks": "webhook", "deliveries": "delivery", "questions": "question", "media": "blob",
         "reports": "report"}
# Bodies that would be accepted from the identifiers' owner, so that only ownership is judged.
BODIES = {("POST", "/v1/links/"): {"name": "Mine"},
          ("PATCH", "/v1/links/{uuid}/"): {"name": "Taken over"},
          ("POST", "/v1/tokens/"): {"name": "mine"},
          ("POST", "/v1/workspaces/{uuid}/webhooks/"): {"url": "https://127.0.0.1:9/mine",
                                                         "events": ["response.submitted"]},
          ("PUT", "/i/{slug}/responses/{uuid}/answers/{field_key}/"): {"value": "taken over"},
          ("POST", "/i/{slug}/responses/{uuid}/answers/{field_key}/follow_ups/"): {"value": "x"},
          ("POST", "/i/{slug}/responses/{uuid}/submit/"): {},
          ("POST", "/i/{slug}/responses/"): {},
          ("POST", "/i/{slug}/submit/"): {"answers": {"why": "mine"}},
          ("POST", "/v1/responses/erase/"): {"respondent_email": "nobody-of-either@example.com"}}


class Owner:
    """A workspace with one of everything a route can name."""

    def __init__(self, name):
        self.ws = Workspace()
        self.host = self.ws.info["host"]
        self.slug = f"{name}-{uuid.uuid4().hex[:6]}"
        self.link = self.ws.link(name=f"Link of {name}", slug=self.slug, questions=QUESTIONS,
                                 settings=SETTINGS)
        self.email = f"{name}-{uuid.uuid4().hex[:6]}@example.com"
        self.text = f"secret answer of {name} {uuid.uuid4().hex}"
        self.completed = self.ws.complete(self.slug, {"why": self.text}, email=self.email)
        self.started = self.ws.start(self.slug, email=self.email)
        r = self.ws.intake("POST", f"/i/{self.slug}/responses/{self.started['uuid']}/files/doc/",
                           token=self.started["token"], body=media_files.png(),
                           headers={"Content-Type": "image/png", "X-File-Name": "a.png"})
        self.file_url = expect(r, 200)["value"]["url"]
        self.token = self.ws.token(name=f"token of {name}")
        self.webhook = expect(self.ws.call("POST", f"workspaces/{self.ws.uuid}/webhooks/", json={
            "url": "https://127.0.0.1:9/hook", "events": ["response.submitted"]}), 201)
        expect(self.ws.call("POST", f"workspaces/{self.ws.uuid}/webhooks/{self.webhook['uuid']}/test/"), 202)
        self.report = expect(self.ws.call("POST", f"links/{self.link['uuid']}/reports/", json={}), 201)
        deliveries = f"workspaces/{self.ws.uuid}/webhooks/{self.webhook['uuid']}/deliveries/"
        wait_until(lambda: expect(self.ws.call("GET", deliveries), 200)["count"] > 0, 20,
                   "a delivery attempt recorded")
        self.delivery = expect(self.ws.call("GET", deliveries), 200)["results"][0]
        self.ids = {"link": self.link["uuid"], "response": self.completed["uuid"],
                    "started": self.started["uuid"], "token": self.token["uuid"],
                    "workspace": self.ws.uuid, "webhook": self.webhook["uuid"],
                    "delivery": self.delivery["uuid"], "question": self.link["questions"][0]["uuid"],
                    "blob": self.file_url.split("/media/")[1].split("?")[0], "slug": self.slug,
                    "report": self.report["uuid"], "report_token": self.report["url"].rsplit("/", 1)[1]}

    def secrets(self):
        """Everything of this workspace another one must never see."""
        return [*self.ids.values(), self.link["name"], self.email, self.text, self.ws.key,
                self.token["key"], self.started["token"], self.webhook["secret"], self.host]


def route_table():
    with urllib.request.urlopen(ENV["ADMIN_URL"] + "routes", timeout=5) as r:
        return json.loads(r.read())


def fill(pattern, ids, field_key="why"):
    """The pattern's path with `ids` in place of its parameters."""
    segments = pattern.split("/")
    out = []
    for i, segment in enumerate(segments):
        if segment == "{uuid}":
            kind = KINDS.get(segments[i - 1])
            assert kind, f"{pattern}: this test does not know what {segments[i - 1]}/{{uuid}} names"
            # On the public intake, a response is one the respondent started.
            out.append(ids["started" if kind == "response" and pattern.startswith("/i/") else kind])
        elif segment == "{slug}":
            out.append(ids["slug"])
        elif segment == "{report_token}":
            out.append(ids["report_token"])
        elif segment == "{field_key}":
            out.append({"files": "doc", "audio": "said", "live": "said"}.get(segments[i - 2], field_key))
        else:
            assert not segment.startswith("{"), f"{pattern}: unknown parameter {segment}"
            out.append(segment)
    return "/".join(out)


def call(route, path, key=None, host=None, token=None, query=""):
    method, pattern = route["method"], route["pattern"]
    headers = {"Host": host} if host else {}
    if token:
        headers["X-Response-Token"] = token
    body = None
    if route["upload"]:
        audio = "/audio/" in pattern
        headers["Content-Type"] = "audio/wav" if audio else "image/png"
        headers["X-File-Name"] = "a.png"
        body = media_files.wav(0.5) if audio else media_files.png()
    elif method in ("POST", "PUT", "PATCH"):
        headers["Content-Type"] = "application/json"
        body = json.dumps(BODIES.get((method, pattern), {})).encode()
    return request(method, path + query, key=key, headers=headers, body=body)


def nowhere():
    """Identifiers that exist in no workspace."""
    ids = {k: str(uuid.uuid4()) for k in ("link", "response", "started", "token", "workspace",
                                            "webhook", "delivery", "question", "blob", "report")}
    ids["slug"] = f"nowhere-{uuid.uuid4().hex[:6]}"
    ids["report_token"] = (uuid.uuid4().hex + uuid.uuid4().hex)[:43]
    return ids


def assert_not_found(r, like, owner, what):
    assert r.status == 404, f"{what}: expected 404, got {r!r}"
    text = r.body.decode(errors="replace") + json.dumps(dict(r.headers))
    for secret in owner.secrets():
        assert secret not in text, f"{what}: the answer carries {secret[:12]}... of another workspace"
    # Answered as for identifiers that exist nowhere: no oracle of what exists elsewhere.
    assert like.status == 404, f"{what}: identifiers that exist nowhere answered {like!r}"
    if r.json is not None or like.json is not None:
        assert r.json["error"]["code"] == like.json["error"]["code"], (r, like)
        assert r.json["error"]["message"] == like.json["error"]["message"], (r, like)


def signed_query(url):
    return "?" + url.split("?", 1)[1]


def check_keyed_route(route, a, b):
    """A route of the API (key and scope): B's key on A's identifiers. Returns the calls made."""
    pattern, what = route["pattern"], f"{route['method']} {route['pattern']}"
    if "{" not in pattern:
        # Lists and creates: the caller's own workspace only.
        r = call(route, fill(pattern, b.ids), key=b.ws.key)
        assert r.status < 300, f"{what}: {r!r}"
        text = r.body.decode(errors="replace")
        for secret in a.secrets():
            assert secret not in text, f"{what} shows {secret[:12]}... of another workspace"
        return 1
    if route["method"] == "GET":
        # The owner reaches it: the identifiers filled in name something.
        mine = call(route, fill(pattern, a.ids), key=a.ws.key)
        assert mine.status == 200, f"{what}: {mine!r} for its owner, so the check proves nothing"
    r = call(route, fill(pattern, a.ids), key=b.ws.key)
    assert_not_found(r, call(route, fill(pattern, nowhere()), key=b.ws.key), a, what)
    if not (pattern.startswith("/v1/workspaces/{uuid}/") and pattern.count("{uuid}") > 1):
        return 1
    # The caller's own workspace in the path, another's webhook or delivery after it.
    mixed = dict(a.ids, workspace=b.ws.uuid)
    r = call(route, fill(pattern, mixed), key=b.ws.key)
    like = call(route, fill(pattern, dict(nowhere(), workspace=b.ws.uuid)), key=b.ws.key)
    assert_not_found(r, like, a, f"{what} (own workspace, another's ids)")
    return 2


def check_public_route(route, a, b):
    """A route of the public intake: A's identifiers, token and signatures from B's side.
    Returns the calls made."""
    pattern, what = route["pattern"], f"{route['method']} {route['pattern']}"
    assert "{" in pattern, f"{what}: a public route without identifiers"
    query = signed_query(a.file_url) if pattern.startswith("/media/") else ""
    if "/live/" in pattern:
        query = f"?token={a.started['token']}"
    if route["method"] == "GET":
        # The owner reaches it: the identifiers filled in name something.
        mine = call(route, fill(pattern, a.ids), host=a.host, token=a.started["token"], query=query)
        assert mine.status != 404, f"{what}: 404 for its owner too, so the check below proves nothing"
    # A's slug and ids on B's host, with A's response token and A's signature.
    r = call(route, fill(pattern, a.ids), host=b.host, token=a.started["token"], query=query)
    like = call(route, fill(pattern, nowhere()), host=b.host, token=a.started["token"], query=query)
    assert_not_found(r, like, a, f"{what} (another workspace's host)")
    if "/live/" in pattern or not ("{slug}" in pattern and "{uuid}" in pattern):
        return 1  # the WebSocket's own refusals: the next test
    # B's own link, A's response (or question) and A's token.
    mixed = dict(a.ids, slug=b.slug)
    r = call(route, fill(pattern, mixed), host=b.host, token=a.started["token"])
    like = call(route, fill(pattern, dict(nowhere(), slug=b.slug)), host=b.host,
                token=a.started["token"])
    assert_not_found(r, like, a, f"{what} (own link, another's response)")
    if "{slug}/responses/{uuid}" not in pattern:
        return 2
    # A's own link and response, B's response token.
    r = call(route, fill(pattern, a.ids), host=a.host, token=b.started["token"])
    like = call(route, fill(pattern, dict(a.ids, started=str(uuid.uuid4()))), host=a.host,
                token=b.started["token"])
    assert_not_found(r, like, a, f"{what} (another response's token)")
    return 3


@test
def every_route_answers_404_for_another_workspaces_identifiers_and_leaks_nothing():
    a, b = Owner("a"), Owner("b")
    routes = route_table()
    assert len(routes) >= 30, routes
    checked = 0
    for route in routes:
        if route["access"] == "asset":
            assert "{" not in route["pattern"], f"{route['pattern']}: an asset route takes no identifier"
        elif route["access"] == "api_key":
            checked += check_keyed_route(route, a, b)
        else:
            assert route["access"] == "public", f"{route['pattern']}: unknown access {route['access']}"
            checked += check_public_route(route, a, b)
    print(f"  {len(routes)} routes, {checked} cross-workspace calls, all 404 and silent")
    assert checked >= 40, checked
    # And nothing of A's changed: its link, token, webhook and started response are as they were.
    assert expect(a.ws.call("GET", f"links/{a.link['uuid']}/"), 200)["name"] == a.link["name"]
    expect(a.ws.call("GET", "links/", key=a.token["key"]), 200)
    expect(a.ws.call("GET", f"workspaces/{a.ws.uuid}/webhooks/{a.webhook['uuid']}/"), 200)
    record = expect(a.ws.submit(a.slug, a.started), 200)
    assert not [x for x in record["answers"] if x["value"] == "taken over"], record


@test
def live_transcription_of_another_workspaces_response_is_refused_like_a_missing_one():
    a, b = Owner("a"), Owner("b")

    def refusal(response_uuid, token):
        path = f"/i/{b.slug}/responses/{response_uuid}/live/said/?token={token}"
        sock = media_files.WebSocket(ENV["GATEWAY_ADDR"], path, b.host)
        try:
            assert sock.status == 101, sock.head
            sock.send(b"\x00\x00" * 1600, binary=True)
            op, payload = sock.receive()
            assert op == 1, payload
            return json.loads(payload)
        finally:
            sock.close()

    theirs = refusal(a.started["uuid"], a.started["token"])
    nobodys = refusal(str(uuid.uuid4()), a.started["token"])
    assert theirs["type"] == "error" and theirs["error"]["code"] is None, theirs
    assert theirs["error"]["message"] == nobodys["error"]["message"], (theirs, nobodys)
    for secret in a.secrets():
        assert secret not in json.dumps(theirs), secret[:12]


@test
def another_workspaces_signed_media_address_is_404_on_every_host_but_its_own():
    a, b = Owner("a"), Owner("b")
    path = "/media/" + a.file_url.split("/media/", 1)[1]
    expect(intake(a.host, "GET", path), 200)
    r = intake(b.host, "GET", path)
    assert_not_found(r, intake(b.host, "GET", f"/media/{uuid.uuid4()}{signed_query(a.file_url)}"),
                     a, "GET /media/ on another workspace's host")
