"""The API's description (GET /v1/openapi.json) is served as committed, and every operation it
names is one the gateway routes (neither the router's 404 nor a 405)."""
import json
import os
import uuid

from harness import ROOT, Workspace, request, test


@test
def the_document_is_served_as_committed():
    r = request("GET", "/v1/openapi.json")
    assert r.status == 200 and r.header("Content-Type") == "application/json", r
    with open(os.path.join(ROOT, "services", "gateway", "openapi", "openapi.json"), "rb") as f:
        assert r.body == f.read()
    again = request("GET", "/v1/openapi.json", headers={"If-None-Match": r.header("ETag")})
    assert again.status == 304, again


@test
def every_described_operation_is_routed():
    ws = Workspace()
    doc = json.loads(request("GET", "/v1/openapi.json").body)
    fills = {"slug": "some-link", "field_key": "some_key", "workspace_uuid": ws.uuid}
    checked = 0
    for path, item in doc["paths"].items():
        concrete = path
        for name in [p.strip("{}") for p in path.split("/") if p.startswith("{")]:
            concrete = concrete.replace("{" + name + "}", fills.get(name, str(uuid.uuid4())))
        for method in item:
            headers = {"Host": ws.info["host"]} if concrete.startswith(("/i/", "/media/")) else {}
            r = request(method.upper(), concrete, key=ws.key, headers=headers,
                        body=b"{}" if method in ("post", "put", "patch") else None)
            routed = not (r.status == 404 and b"No such resource." in r.body) and r.status != 405
            assert routed, f"{method.upper()} {path} is described but not routed: {r!r}"
            checked += 1
    assert checked >= 30, checked
