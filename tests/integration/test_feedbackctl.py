"""feedbackctl: workspace create and set-plan, and how the gateway sees a plan change."""
import hashlib
import json

from harness import Workspace, expect, feedbackctl, redis, sql, test


@test
def create_prints_one_json_object():
    r = feedbackctl("workspace", "create", "--name", "Acme Feedback", "--plan", "pro")
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)
    for k in ("workspace_uuid", "subdomain", "host", "plan", "api_key"):
        assert k in j, j
    assert j["plan"] == "pro" and j["host"].startswith(j["subdomain"] + ".")
    assert j["api_key"].startswith("sk_live_")
    assert sql(f"SELECT plan FROM tokens.workspaces WHERE uuid = '{j['workspace_uuid']}'") == [["pro"]]


@test
def set_plan_changes_the_quota_the_gateway_applies():
    ws = Workspace(plan="free", rate_limit=None, link_quota=1)
    ws.link()
    expect(ws.call("POST", "links/", json={"name": "over"}), 403, "LINK_LIMIT_REACHED")
    # The override stays; the plan's defaults change.
    r = feedbackctl("workspace", "set-plan", ws.uuid, "enterprise")
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)
    assert j["plan"] == "enterprise" and j["link_quota"] == 1, j
    key_hash = hashlib.sha256(ws.key.encode()).hexdigest()
    assert redis("EXISTS", "fb:key:{" + key_hash + "}") == "0"
    plain = Workspace(plan="free", rate_limit=None)
    assert json.loads(feedbackctl("workspace", "set-plan", plain.uuid, "enterprise").stdout)["link_quota"] is None


@test
def bad_invocations_fail_with_a_message():
    r = feedbackctl("workspace", "create")
    assert r.returncode == 2 and "--name" in r.stderr and "usage" in r.stderr, r
    r = feedbackctl("workspace", "create", "--name", "x", "--plan", "gold")
    assert r.returncode == 2 and "plan" in r.stderr, r
    r = feedbackctl("workspace", "set-plan", "123e4567-e89b-42d3-a456-426614174000", "pro")
    assert r.returncode == 1 and "workspace" in r.stderr.lower(), r
    r = feedbackctl("workspace", "create", "--name", "x", "--subdomain", "Not Valid")
    assert r.returncode == 1 and "subdomain" in r.stderr, r
