"""/v1/links/ as far as the foundation goes: create, detail, list, delete, quota."""
import concurrent.futures

from harness import Workspace, expect, sql, test


@test
def create_detail_list_delete():
    ws = Workspace()
    made = ws.link(name="Customer NPS Survey", questions=[{"prompt": "Overall satisfaction"}])
    assert made["slug"] == "customer-nps-survey"
    assert made["public_url"].endswith(f".{made['public_url'].split('.', 1)[1].split('/')[0]}/i/customer-nps-survey")
    assert expect(ws.call("GET", f"links/{made['uuid']}/"), 200) == made
    listed = expect(ws.call("GET", "links/"), 200)
    assert listed["count"] == 1 and listed["results"] == [made]
    expect(ws.call("DELETE", f"links/{made['uuid']}/"), 200)
    expect(ws.call("GET", f"links/{made['uuid']}/"), 404, None)
    assert sql(f"SELECT count(*) FROM links.questions WHERE link_uuid = '{made['uuid']}'") == [["0"]]
    # The slug is free again.
    assert ws.link(name="Customer NPS Survey")["slug"] == "customer-nps-survey"


@test
def generated_slugs_get_suffixes_given_ones_conflict():
    ws = Workspace()
    assert [ws.link(name="Same")["slug"] for _ in range(3)] == ["same", "same-2", "same-3"]
    expect(ws.call("POST", "links/", json={"name": "x", "slug": "same"}), 400, "SLUG_CONFLICT")
    expect(ws.call("POST", "links/", json={"name": "x", "slug": "Bad Slug"}), 400, "INVALID_SLUG")


@test
def name_required_and_nothing_partial_stored():
    ws = Workspace()
    for body in ({}, {"name": None}, {"name": "  "}):
        expect(ws.call("POST", "links/", json=body), 400, "NAME_REQUIRED")
    expect(ws.call("POST", "links/", json={"name": "x", "questions": [{"prompt": "a"},
                                                                     {"prompt": "b", "type": "telepathy"}]}),
           400, "INVALID_QUESTION_TYPE")
    assert sql(f"SELECT count(*) FROM links.links WHERE workspace_uuid = '{ws.uuid}'") == [["0"]]


@test
def quota_race_for_the_last_slot_has_one_winner():
    ws = Workspace(link_quota=3)
    ws.link()
    ws.link()
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda i: ws.call("POST", "links/", json={"name": f"race {i}"}),
                                range(8)))
    statuses = sorted(r.status for r in results)
    assert statuses == [201] + [403] * 7, statuses
    for r in results:
        if r.status == 403:
            expect(r, 403, "LINK_LIMIT_REACHED")
    assert sql(f"SELECT count(*) FROM links.links WHERE workspace_uuid = '{ws.uuid}'") == [["3"]]


@test
def other_workspaces_links_are_404():
    a, b = Workspace(), Workspace()
    link = a.link()
    expect(b.call("GET", f"links/{link['uuid']}/"), 404, None)
    expect(b.call("DELETE", f"links/{link['uuid']}/"), 404, None)
    assert expect(b.call("GET", "links/"), 200)["count"] == 0
    expect(a.call("GET", f"links/{link['uuid']}/"), 200)
