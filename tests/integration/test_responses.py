"""Reading responses: /v1/links/{uuid}/responses/, its detail and /v1/responses/ with every list
parameter and error code (ordering, search, since/until, status, pagination), isolation between
workspaces and links, scopes, responses of deleted links, and response_count on links, exact at
once on every gateway replica."""
import concurrent.futures
import datetime
import json
import time
import urllib.parse
import urllib.request
import uuid

import harness
from harness import (Workspace, dispatch_paused, expect, redis, request, sql, stack_unit_tests, test,
                     wait_until)
from test_intake import CARDS, by_key, count_key, details, link_counts, outbox, redis_count, redis_pending

COMMENT = [{"prompt": "Comment?", "type": "text", "field_key": "comment"}]


def listing(ws, link=None, key=None, **query):
    """GET a link's responses (or, without `link`, the workspace's: GET /v1/responses/)."""
    path = f"links/{link}/responses/" if link else "responses/"
    if query:
        path += "?" + urllib.parse.urlencode(query)
    return ws.call("GET", path, **({"key": key} if key else {}))


def ok(ws, link=None, **query):
    j = expect(listing(ws, link, **query), 200)
    assert set(j) == {"count", "next", "previous", "results"}, sorted(j)
    return j


def uuids(j):
    return [x["uuid"] for x in j["results"]]


def every_page(ws, link, page_size, **query):
    """All results, page by page."""
    out, page = [], 1
    while True:
        j = ok(ws, link, page=page, page_size=page_size, **query)
        out += uuids(j)
        if j["next"] is None:
            return out
        page += 1


def parse_ts(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)


def fmt_ts(dt, offset_hours=0):
    if offset_hours:
        dt = dt.astimezone(datetime.timezone(datetime.timedelta(hours=offset_hours)))
        return dt.strftime("%Y-%m-%dT%H:%M:%S.%f") + f"+{offset_hours:02d}:00"
    return dt.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# --- status --------------------------------------------------------------------------------------

@test
def lists_show_completed_responses_unless_asked_for_others():
    ws = Workspace()
    link = ws.link(slug="status", questions=COMMENT)
    L = link["uuid"]
    done = [ws.complete("status", {"comment": f"done {i}"}, email=f"d{i}@example.com") for i in range(3)]
    wip1 = ws.start("status", "w1@example.com")
    wip2 = ws.start("status")
    expect(ws.answer("status", wip2, "comment", "half way"), 200)
    for query in ({}, {"status": "completed"}, {"status": ""}):
        j = ok(ws, L, **query)
        assert j["count"] == 3 and set(uuids(j)) == {d["uuid"] for d in done}, (query, j)
        assert all(r["status"] == "completed" for r in j["results"])
    j = ok(ws, L, status="in_progress")
    assert j["count"] == 2 and set(uuids(j)) == {wip1["uuid"], wip2["uuid"]}, j
    assert all(r["status"] == "in_progress" and r["submitted_at"] is None for r in j["results"])
    wip2_record = next(r for r in j["results"] if r["uuid"] == wip2["uuid"])
    assert by_key(wip2_record)["comment"]["value"] == "half way"
    assert next(r for r in j["results"] if r["uuid"] == wip1["uuid"])["respondent_email"] == "w1@example.com"
    assert ok(ws, L, status="all")["count"] == 5
    # Counts from the per-link totals and from a filtered scan agree.
    for status, n in (("completed", 3), ("in_progress", 2), ("all", 5)):
        assert ok(ws, L, status=status, since="2000-01-01")["count"] == n, status
        assert ok(ws, status=status)["count"] == n, status
    assert ok(ws, L, status="all", search="half")["count"] == 1
    assert ok(ws, L, search="half")["count"] == 0
    for bad in ("COMPLETED", "done", "any", "in-progress", "completed,in_progress"):
        assert "status" in details(listing(ws, L, status=bad), "VALIDATION_ERROR"), bad
        assert "status" in details(listing(ws, status=bad), "VALIDATION_ERROR"), bad
    expect(ws.submit("status", wip2), 200)
    assert (ok(ws, L)["count"], ok(ws, L, status="in_progress")["count"], ok(ws, L, status="all")["count"]) == (4, 1, 5)
    assert ok(ws, L, since="2000-01-01")["count"] == 4
    assert ok(ws, L, status="in_progress", since="2000-01-01")["count"] == 1


# --- ordering -------------------------------------------------------------------------------------

@test
def list_statements_on_postgresql_page_exactly_and_cost_what_a_page_takes():
    """The [.pg] cases of responses_tests (response_lists_pg_test.cc): every list shape (link
    or workspace, each status filter, time bounds, the four orderings) pages exactly as a sort
    in memory, whether a page is read by its offset or sought from the one before; and the
    first page, a page of every status, of email order and a sought page read as many pages
    at 40,000 responses as at 2,000. And (migrations_pg_test.cc) replicas starting together
    apply the migrations once, those building indexes CONCURRENTLY included."""
    stack_unit_tests("services/responses/responses_tests", "[.pg]")


@test
def ordering_sorts_and_every_page_agrees_with_it():
    ws = Workspace()
    link = ws.link(slug="order", questions=COMMENT)
    L = link["uuid"]
    emails = ["dave@example.com", "alice@example.com", None, "alice@example.com", "bob@example.com", None,
              "carol@example.com"]
    made = [ws.complete("order", {"comment": f"#{i}"}, email=e) for i, e in enumerate(emails)]
    times = [m["submitted_at"] for m in made]
    assert times == sorted(times) and len(set(times)) == len(times), times
    newest_first = [m["uuid"] for m in reversed(made)]
    assert uuids(ok(ws, L)) == newest_first
    assert uuids(ok(ws, L, ordering="-submitted_at")) == newest_first
    assert uuids(ok(ws, L, ordering="submitted_at")) == newest_first[::-1]
    by_email = {m["uuid"]: m["respondent_email"] for m in made}
    for ordering, reverse in (("respondent_email", False), ("-respondent_email", True)):
        got = [by_email[u] for u in uuids(ok(ws, L, ordering=ordering))]
        given = [e for e in got if e is not None]
        assert given == sorted(given, reverse=reverse), (ordering, got)
        assert len(got) == len(made)
    for ordering in ("submitted_at", "-submitted_at", "respondent_email", "-respondent_email"):
        full = uuids(ok(ws, L, ordering=ordering, page_size=100))
        for size in (1, 2, 3):
            assert every_page(ws, L, size, ordering=ordering) == full, (ordering, size)
        assert every_page(ws, None, 2, ordering=ordering, link_uuid=L) == full, ordering
    for bad in ("uuid", "email", "-", "submitted_at,respondent_email", "+submitted_at", "SUBMITTED_AT",
                "started_at", "--submitted_at"):
        assert "ordering" in details(listing(ws, L, ordering=bad), "INVALID_ORDERING"), bad
        assert "ordering" in details(listing(ws, ordering=bad), "INVALID_ORDERING"), bad


# --- search ---------------------------------------------------------------------------------------

@test
def search_matches_emails_and_text_answers_and_takes_wildcards_literally():
    ws = Workspace()
    link = ws.link(slug="find", questions=COMMENT + [
        {"prompt": "Pick", "type": "multiple_choice", "field_key": "pick", "configuration": {"options": ["x%y", "z"]}}])
    L = link["uuid"]
    a = ws.complete("find", {"comment": "nothing to add"}, email="Alice.Smith@Example.com")
    b = ws.complete("find", {"comment": "Pricing was CONFUSING"}, email="bob@example.com")
    pct = ws.complete("find", {"comment": "I am 100% sure"})
    nopct = ws.complete("find", {"comment": "I am 1000 sure"})
    snake = ws.complete("find", {"comment": "snake_case wins"})
    snakex = ws.complete("find", {"comment": "snakeXcase wins"})
    back = ws.complete("find", {"comment": "back\\slash"})
    backx = ws.complete("find", {"comment": "backslash"})
    ecole = ws.complete("find", {"comment": "Notre École publique"})
    wip = ws.start("find")
    expect(ws.answer("find", wip, "comment", "pending words"), 200)
    cases = [("alice.smith@example", [a]), ("ALICE", [a]), ("éCOLE", [ecole]), ("école", [ecole]), ("example.com", [a, b]), ("confusing", [b]),
             ("pricing WAS conf", [b]), ("%", [pct]), ("0%", [pct]), ("100%", [pct]), ("sure", [pct, nopct]),
             ("_", [snake]), ("e_c", [snake]), ("snake", [snake, snakex]), ("\\", [back]), ("k\\s", [back]),
             ("slash", [back, backx]), ("zzz", []), ("pending", []), ("%%", []), ("__", [])]
    for term, want in cases:
        j = ok(ws, L, search=term)
        assert set(uuids(j)) == {w["uuid"] for w in want}, f"search {term!r}: {uuids(j)}"
        assert j["count"] == len(want), (term, j["count"])
    for status in ("all", "in_progress"):
        assert uuids(ok(ws, L, search="PENDING", status=status)) == [wip["uuid"]]
    # What search looks in follows a saved answer as it is replaced and cleared.
    expect(ws.answer("find", wip, "comment", "replaced words"), 200)
    assert ok(ws, L, search="pending", status="all")["count"] == 0
    assert uuids(ok(ws, L, search="replaced", status="all")) == [wip["uuid"]]
    expect(ws.answer("find", wip, "comment", None), 200)
    assert ok(ws, L, search="replaced", status="all")["count"] == 0
    assert uuids(ok(ws, search="%")) == [pct["uuid"]]
    assert uuids(ok(ws, search="e_c", link_uuid=L)) == [snake["uuid"]]
    assert ok(ws, L, search="")["count"] == 9
    assert ok(ws, L, search="x" * 200)["count"] == 0
    # Text is kept folded whatever writes it (a replica of the version before included).
    sql(f"UPDATE responses.responses SET search_text = 'Written By An OLDER Replica' "
        f"WHERE uuid = '{backx['uuid']}'")
    assert uuids(ok(ws, L, search="older replica")) == [backx["uuid"]]
    assert "search" in details(listing(ws, L, search="x" * 201), "VALIDATION_ERROR")


def responses_metric(name):
    with urllib.request.urlopen(harness.ENV["RESPONSES_ADMIN_URL"] + "metrics", timeout=10) as r:
        for line in r.read().decode().splitlines():
            if line.startswith(name + " "):
                return int(line.split()[1])
    return 0


def pending_search_entries():
    return int(sql("SELECT pending_tuples FROM pgstatginindex('responses.responses_search_keys')")[0][0])


@test
def the_search_index_pending_list_is_merged_in_the_background():
    # Submissions add their search keys to the search index's pending list; the responses service
    # merges it into the index on a connection of its own, so that no submission waits for a
    # merge. Twenty responses are far from the size at which a submission would merge it.
    # Autovacuum empties the pending list too; it is held off so that it cannot take this
    # list before the merger does (in CI it once did, and the merger found nothing to merge).
    sql("CREATE EXTENSION IF NOT EXISTS pgstattuple")
    sql("ALTER TABLE responses.responses SET (autovacuum_enabled = false)")
    try:
        ws = Workspace()
        link = ws.link(slug="merged", questions=COMMENT)
        merged_pages = responses_metric("search_index_merged_pages_total")
        for i in range(20):
            ws.complete("merged", {"comment": f"background merge {i} of the zebra crossing"})
        wait_until(lambda: pending_search_entries() == 0 and
                   responses_metric("search_index_merged_pages_total") > merged_pages,
                   timeout=10, what="the pending list merged")
    finally:
        sql("ALTER TABLE responses.responses RESET (autovacuum_enabled)")
    assert responses_metric("search_index_merges_total") > 0
    assert responses_metric("search_index_merge_failures_total") == 0
    assert ok(ws, link["uuid"], search="ZEBRA cross")["count"] == 20


# --- since / until --------------------------------------------------------------------------------

@test
def since_and_until_bound_submission_times_inclusively():
    ws = Workspace()
    link = ws.link(slug="time", questions=COMMENT)
    L = link["uuid"]
    made = []
    for i in range(3):
        made.append(ws.complete("time", {"comment": f"t{i}"}))
        time.sleep(0.005)
    r1, r2, r3 = (m["uuid"] for m in made)
    t1, t2, t3 = (parse_ts(m["submitted_at"]) for m in made)
    micro = datetime.timedelta(microseconds=1)
    assert uuids(ok(ws, L, since=fmt_ts(t2))) == [r3, r2]
    assert uuids(ok(ws, L, until=fmt_ts(t2))) == [r2, r1]
    assert uuids(ok(ws, L, since=fmt_ts(t2), until=fmt_ts(t2))) == [r2]
    assert uuids(ok(ws, L, since=fmt_ts(t2, 2), until=fmt_ts(t2, 5))) == [r2]
    assert uuids(ok(ws, L, since=fmt_ts(t2 + micro))) == [r3]
    assert uuids(ok(ws, L, until=fmt_ts(t2 - micro))) == [r1]
    assert ok(ws, L, until=fmt_ts(t1 - micro))["count"] == 0
    assert ok(ws, L, since=fmt_ts(t3 + micro))["count"] == 0
    assert uuids(ok(ws, since=fmt_ts(t2), until=fmt_ts(t3), link_uuid=L)) == [r3, r2]
    if t1.date() == t3.date():
        day = t1.date()
        assert ok(ws, L, until=day.isoformat())["count"] == 3, "a bare date as until must include the whole day"
        assert ok(ws, L, since=day.isoformat(), until=day.isoformat())["count"] == 3
        assert ok(ws, L, until=(day - datetime.timedelta(days=1)).isoformat())["count"] == 0
        assert ok(ws, L, since=(day + datetime.timedelta(days=1)).isoformat())["count"] == 0
    # In-progress responses are bounded by their start.
    wip = ws.start("time")
    started = parse_ts(ok(ws, L, status="in_progress")["results"][0]["started_at"])
    assert started > t3
    assert uuids(ok(ws, L, status="in_progress", since=fmt_ts(started))) == [wip["uuid"]]
    assert ok(ws, L, status="in_progress", until=fmt_ts(started - micro))["count"] == 0
    assert uuids(ok(ws, L, status="all", since=fmt_ts(t3))) == [wip["uuid"], r3]
    for name in ("since", "until"):
        for bad in ("yesterday", "2024-13-01", "2024-02-30", "2023-02-29", "2024-01-01T25:00:00Z",
                    "2024-01-01T10:00:00+25:00", "2024-01-01T10:00:00Q", "1700000000", "2024/01/01"):
            assert name in details(listing(ws, L, **{name: bad}), "VALIDATION_ERROR"), (name, bad)
            assert name in details(listing(ws, **{name: bad}), "VALIDATION_ERROR"), (name, bad)


# --- pagination -----------------------------------------------------------------------------------

@test
def pages_link_to_each_other_keeping_every_parameter():
    ws = Workspace()
    link = ws.link(slug="pages", questions=COMMENT)
    L = link["uuid"]
    for i in range(5):
        ws.complete("pages", {"comment": f"page me {i}"}, email=f"e{i}@example.com")
    ws.complete("pages", {"comment": "other"}, email="zz@example.com")
    query = {"page_size": "2", "ordering": "-respondent_email", "search": "page me", "status": "completed",
             "since": "2000-01-01T00:00:00+02:00"}
    full = uuids(ok(ws, L, **dict(query, page_size="100")))
    assert len(full) == 5
    j = ok(ws, L, page="1", **query)
    assert j["count"] == 5 and j["previous"] is None and len(j["results"]) == 2
    seen, pages = uuids(j), 1
    base = urllib.parse.urlsplit(harness.BASE_URL)
    while j["next"] is not None:
        nxt = urllib.parse.urlsplit(j["next"])
        assert (nxt.scheme, nxt.netloc, nxt.path) == (
            base.scheme, base.netloc, f"{base.path}links/{L}/responses/"), j["next"]
        params = dict(urllib.parse.parse_qsl(nxt.query, keep_blank_values=True))
        assert params == dict(query, page=str(pages + 1)), f"next lost parameters: {j['next']}"
        j2 = expect(request("GET", nxt.path + "?" + nxt.query, key=ws.key), 200)
        prev = urllib.parse.urlsplit(j2["previous"])
        prev_params = dict(urllib.parse.parse_qsl(prev.query, keep_blank_values=True))
        assert prev.path == nxt.path and prev_params.pop("page", "1") == str(pages), j2["previous"]
        assert prev_params == query, f"previous lost parameters: {j2['previous']}"
        j, pages = j2, pages + 1
        seen += uuids(j)
    assert pages == 3 and seen == full, (pages, seen, full)
    assert len(j["results"]) == 1
    expect(listing(ws, L, page="4", **query), 404, "INVALID_PAGE")
    expect(listing(ws, page="99"), 404, "INVALID_PAGE")
    for name in ("page", "page_size"):
        for bad in ("0", "-1", "abc", "1.5", "2.0", "1e3", " 1"):
            expect(listing(ws, L, **{name: bad}), 400, "INVALID_PAGINATION")
            expect(listing(ws, **{name: bad}), 400, "INVALID_PAGINATION")
    empty = ws.link(slug="empty")
    j = ok(ws, empty["uuid"])
    assert j == {"count": 0, "next": None, "previous": None, "results": []}, j
    expect(listing(ws, empty["uuid"], page="2"), 404, "INVALID_PAGE")


@test
@dispatch_paused
def page_size_is_capped_at_a_hundred_and_concurrent_submissions_are_all_counted():
    ws = Workspace()
    link = ws.link(slug="many", questions=COMMENT)
    L = link["uuid"]
    with concurrent.futures.ThreadPoolExecutor(12) as pool:
        done = list(pool.map(lambda i: ws.oneshot("many", {"comment": f"n{i}"}, email=f"m{i}@example.com"), range(105)))
        started = list(pool.map(lambda i: ws.intake("POST", "/i/many/responses/", json={}), range(7)))
    assert [r.status for r in done] == [201] * 105 and [r.status for r in started] == [201] * 7
    j = ok(ws, L, page_size="1000")
    assert j["count"] == 105 and len(j["results"]) == 100, (j["count"], len(j["results"]))
    assert j["next"] is not None
    nxt = urllib.parse.urlsplit(j["next"])
    rest = expect(request("GET", nxt.path + "?" + nxt.query, key=ws.key), 200)
    assert len(rest["results"]) == 5 and not set(uuids(rest)) & set(uuids(j))
    assert len(ok(ws, L, page_size="101", page="2")["results"]) == 5
    assert len(ok(ws, page_size="100")["results"]) == 100
    assert ok(ws, L, status="all")["count"] == 112
    assert expect(ws.call("GET", f"links/{L}/"), 200)["response_count"] == 105
    assert link_counts(L) == (112, 105)
    assert redis_count(L) == "105"
    assert len(outbox(L)) == 2 * 105 + 7


# --- detail and isolation -------------------------------------------------------------------------

@test
def detail_and_isolation_between_links_and_workspaces():
    ws, other = Workspace(), Workspace()
    la = ws.link(slug="a", questions=COMMENT)
    lb = ws.link(slug="b", questions=COMMENT)
    theirs = other.link(slug="a", questions=COMMENT)
    ra = ws.complete("a", {"comment": "in a"}, email="a@example.com")
    rb = ws.complete("b", {"comment": "in b"})
    wip = ws.start("a")
    rt = other.complete("a", {"comment": "theirs"})
    listed = ok(ws, la["uuid"])["results"]
    assert [r["uuid"] for r in listed] == [ra["uuid"]]
    d = expect(ws.call("GET", f"links/{la['uuid']}/responses/{ra['uuid']}/"), 200)
    assert d == listed[0] == ra
    w = expect(ws.call("GET", f"links/{la['uuid']}/responses/{wip['uuid']}/"), 200)
    assert (w["status"], w["submitted_at"], w["answers"]) == ("in_progress", None, [])
    for body in (d, w):
        assert not {"token", "token_hash"} & set(body), sorted(body)
    assert wip["token"] not in json.dumps(w)
    missing = [f"links/{lb['uuid']}/responses/{ra['uuid']}/",  # another link's response
               f"links/{la['uuid']}/responses/{uuid.uuid4()}/",
               f"links/{la['uuid']}/responses/not-a-uuid/",
               f"links/{uuid.uuid4()}/responses/{ra['uuid']}/",
               f"links/{uuid.uuid4()}/responses/",
               f"links/{theirs['uuid']}/responses/",
               f"links/{theirs['uuid']}/responses/{rt['uuid']}/"]
    for path in missing:
        expect(ws.call("GET", path), 404, None)
    for path in (f"links/{la['uuid']}/responses/", f"links/{la['uuid']}/responses/{ra['uuid']}/",
                 f"links/{la['uuid']}/responses/?status=all"):
        expect(other.call("GET", path), 404, None)
    # The workspace-wide list: this workspace's responses only, deleted links included.
    assert set(uuids(ok(ws))) == {ra["uuid"], rb["uuid"]}
    assert uuids(ok(ws, status="all", ordering="submitted_at")) == [ra["uuid"], rb["uuid"], wip["uuid"]]
    assert uuids(ok(ws, link_uuid=la["uuid"])) == [ra["uuid"]]
    assert uuids(ok(ws, link_uuid=lb["uuid"])) == [rb["uuid"]]
    assert ok(ws, link_uuid=theirs["uuid"])["count"] == 0
    assert ok(ws, link_uuid=str(uuid.uuid4()))["count"] == 0
    assert uuids(ok(other)) == [rt["uuid"]]
    assert ok(other, link_uuid=la["uuid"], status="all")["count"] == 0
    for bad in ("abc", "123", la["uuid"].replace("-", ""), la["uuid"] + "0", "{" + la["uuid"] + "}"):
        assert "link_uuid" in details(listing(ws, link_uuid=bad), "VALIDATION_ERROR"), bad


@test
def reading_responses_needs_the_responses_read_scope():
    ws = Workspace()
    link = ws.link(slug="scoped", questions=COMMENT)
    rec = ws.complete("scoped", {"comment": "x"})
    links_only = ws.token(scopes=["links:read", "links:write"])["key"]
    responses_only = ws.token(scopes=["responses:read"])["key"]
    paths = [f"links/{link['uuid']}/responses/", f"links/{link['uuid']}/responses/{rec['uuid']}/",
             "responses/", f"responses/?link_uuid={link['uuid']}"]
    for path in paths:
        expect(ws.call("GET", path, key=links_only), 403, "INSUFFICIENT_SCOPE")
        assert expect(ws.call("GET", path, key=responses_only), 200)
        expect(request("GET", path), 401, "AUTHENTICATION_REQUIRED")
        expect(ws.call("GET", path, key="sk_live_" + "x" * 40), 401, "INVALID_API_KEY")
    expect(ws.call("GET", "links/", key=responses_only), 403, "INSUFFICIENT_SCOPE")
    expect(ws.call("GET", f"links/{link['uuid']}/", key=responses_only), 403, "INSUFFICIENT_SCOPE")
    assert uuids(expect(ws.call("GET", paths[0], key=responses_only), 200)) == [rec["uuid"]]


# --- deleted links --------------------------------------------------------------------------------

@test
def responses_outlive_their_link_with_question_text_intact():
    ws = Workspace()
    questions = COMMENT + [{"prompt": "Stars?", "type": "rating", "field_key": "stars"},
                           {"prompt": "Which card?", "type": "image_choice", "field_key": "card",
                            "configuration": {"cards": CARDS}}]
    link = ws.link(slug="gone", questions=questions)
    L = link["uuid"]
    rec = ws.complete("gone", {"comment": "remember me", "stars": 4, "card": "c1"}, email="keep@example.com")
    wip = ws.start("gone")
    expect(ws.answer("gone", wip, "comment", "unfinished"), 200)
    expect(ws.call("DELETE", f"links/{L}/"), 200)
    for path in (f"links/{L}/responses/", f"links/{L}/responses/?status=all",
                 f"links/{L}/responses/{rec['uuid']}/", f"links/{L}/responses/{wip['uuid']}/"):
        expect(ws.call("GET", path), 404, None)
    j = ok(ws, link_uuid=L)
    assert j["count"] == 1 and j["results"] == [rec], j
    got = by_key(j["results"][0])
    assert (got["comment"]["question_text"], got["stars"]["question_text"], got["card"]["question_text"]) == (
        "Comment?", "Stars?", "Which card?")
    assert got["stars"]["rating_details"] == {"value": 4, "max_value": 5, "scale_type": "stars"}
    assert got["card"]["selected_card"]["label"] == "Cat"
    assert uuids(ok(ws, link_uuid=L, search="remember")) == [rec["uuid"]]
    assert uuids(ok(ws, link_uuid=L, search="unfinished", status="in_progress")) == [wip["uuid"]]
    assert ok(ws, link_uuid=L, status="all")["count"] == 2
    assert sql(f"SELECT count(*) FROM responses.responses WHERE link_uuid = '{L}'") == [["2"]]
    # The intake of the deleted link is gone, also for a response already started.
    expect(ws.answer("gone", wip, "comment", "more"), 404, None)
    expect(ws.submit("gone", wip), 404, None)
    assert ok(ws, link_uuid=L, status="in_progress")["results"][0]["answers"][0]["value"] == "unfinished"
    # A new link at the same slug starts from nothing.
    new = ws.link(slug="gone", questions=questions)
    assert new["response_count"] == 0 and ok(ws, new["uuid"])["count"] == 0
    fresh = ws.complete("gone", {"comment": "new one"})
    assert uuids(ok(ws, new["uuid"])) == [fresh["uuid"]]
    assert uuids(ok(ws, link_uuid=L)) == [rec["uuid"]]
    assert set(uuids(ok(ws))) == {rec["uuid"], fresh["uuid"]}
    assert expect(ws.call("GET", f"links/{new['uuid']}/"), 200)["response_count"] == 1


@test
def answers_keep_the_question_text_they_were_given_under():
    ws = Workspace()
    link = ws.link(slug="reword", questions=COMMENT)
    old = ws.complete("reword", {"comment": "first"})
    expect(ws.call("PATCH", f"links/{link['uuid']}/", json={"questions": [
        {"uuid": link["questions"][0]["uuid"], "prompt": "Reworded?", "type": "text", "field_key": "comment"}]}), 200)
    new = ws.complete("reword", {"comment": "second"})
    assert by_key(new)["comment"]["question_text"] == "Reworded?"
    got = {r["uuid"]: by_key(r)["comment"]["question_text"] for r in ok(ws, link["uuid"])["results"]}
    assert got == {old["uuid"]: "Comment?", new["uuid"]: "Reworded?"}, got
    assert expect(ws.call("GET", f"links/{link['uuid']}/responses/{old['uuid']}/"), 200) == old


# --- response_count -------------------------------------------------------------------------------

def _count_everywhere(ws, link_uuid, readers):
    """response_count of the link on each reader, from its detail and from the links list."""
    out = []
    for read in readers:
        out.append(expect(read("GET", f"links/{link_uuid}/"), 200)["response_count"])
        listed = expect(read("GET", "links/?page_size=100"), 200)["results"]
        out.append(next(x["response_count"] for x in listed if x["uuid"] == link_uuid))
    return out


@test
def response_count_is_exact_at_once_on_every_replica():
    from test_link_cache import SecondGateway
    ws = Workspace()
    link = ws.link(slug="rw", questions=COMMENT)
    bystander = ws.link(slug="rw-other", questions=COMMENT)
    L = link["uuid"]
    host = ws.info["host"]
    with SecondGateway() as b:
        def on_a(method, path, **kw):
            return ws.call(method, path, **kw)

        def on_b(method, path, **kw):
            return b.call(ws, method, path, **kw)

        def intake_on(read, method, path, token=None, json=None):
            headers = {"Host": host}
            if token:
                headers["X-Response-Token"] = token
            return read(method, path, key=None, headers=headers, json=json)

        for _ in range(2):  # both replicas have read (and may cache) the link and its count
            assert _count_everywhere(ws, L, (on_a, on_b)) == [0] * 4
        n = 0
        for i in range(8):
            via, other = (on_a, on_b) if i % 2 == 0 else (on_b, on_a)
            st = expect(intake_on(via, "POST", "/i/rw/responses/", json={}), 201)
            assert _count_everywhere(ws, L, (other, via)) == [n] * 4, "a started response was counted"
            if i % 4 < 2:
                expect(intake_on(via, "POST", "/i/rw/submit/", json={"answers": {"comment": f"c{i}"}}), 201)
            else:
                expect(intake_on(via, "POST", f"/i/rw/responses/{st['uuid']}/submit/", token=st["token"],
                                 json={"answers": {"comment": f"c{i}"}}), 200)
            n += 1
            got = _count_everywhere(ws, L, (other, via))
            assert got == [n] * 4, f"after submit {n} (through replica {'A' if via is on_a else 'B'}): {got}"
        assert _count_everywhere(ws, bystander["uuid"], (on_a, on_b)) == [0] * 4
    assert redis_count(L) == str(n)
    assert link_counts(L) == (n + 4, n)
    assert ok(ws, L)["count"] == n


@test
def response_count_is_rebuilt_when_its_redis_key_is_lost():
    ws = Workspace()
    link = ws.link(slug="lost", questions=COMMENT)
    L = link["uuid"]
    for i in range(2):
        ws.complete("lost", {"comment": str(i)})
    ws.start("lost")
    assert expect(ws.call("GET", f"links/{L}/"), 200)["response_count"] == 2
    assert redis_count(L) == "2"
    redis("DEL", count_key(L))
    assert expect(ws.call("GET", f"links/{L}/"), 200)["response_count"] == 2
    wait_until(lambda: redis_count(L) == "2", timeout=5, what="count refilled in Redis")
    redis("DEL", count_key(L))
    listed = expect(ws.call("GET", "links/"), 200)["results"]
    assert [x["response_count"] for x in listed if x["uuid"] == L] == [2]
    ws.complete("lost", {"comment": "third"})
    assert expect(ws.call("GET", f"links/{L}/"), 200)["response_count"] == 3
    assert redis_count(L) == "3"


def _pending(link_uuid):
    return set(filter(None, redis("ZRANGE", f"fb:link:{{{link_uuid}}}:pending", "0", "-1").split("\n")))


@test
def a_lost_settlement_keeps_its_link_exact_until_a_later_read_settles_it():
    """A submission whose settlement never reached Redis (its process died after the commit)
    left the count one short and its entry in `pending`. Reads stay exact while the entry is
    there; the first count read ten minutes after it began raises the count and removes it,
    and a submission's own settlement removes such entries too."""
    ws = Workspace()
    link = ws.link(slug="lost-settle", questions=COMMENT)
    L = link["uuid"]
    for i in range(2):
        ws.complete("lost-settle", {"comment": str(i)})
    now_ms = int(time.time() * 1000)
    redis("SET", count_key(L), "1")
    redis("ZADD", f"fb:link:{{{L}}}:pending", str(now_ms - 11 * 60 * 1000), "lost:old",
          str(now_ms - 60 * 1000), "lost:recent")
    # What is still pending lives as long as the count that lacks it.
    redis("EXPIRE", f"fb:link:{{{L}}}:pending", "100")
    for _ in range(2):
        assert expect(ws.call("GET", f"links/{L}/"), 200)["response_count"] == 2
    wait_until(lambda: redis_count(L) == "2" and _pending(L) == {"lost:recent"}, timeout=5,
               what="the old entry settled by the read, the recent one kept")
    assert int(redis("TTL", f"fb:link:{{{L}}}:pending")) > 24 * 3600 - 60
    redis("ZADD", f"fb:link:{{{L}}}:pending", str(now_ms - 12 * 60 * 1000), "lost:older")
    ws.complete("lost-settle", {"comment": "third"})
    assert _pending(L) == {"lost:recent"}, "the submission's settlement kept an entry it counted"
    assert redis_count(L) == "3"
    redis("ZREM", f"fb:link:{{{L}}}:pending", "lost:recent")
    assert expect(ws.call("GET", f"links/{L}/"), 200)["response_count"] == 3


@test
@dispatch_paused
def response_count_is_exact_even_when_redis_stalls_the_count_update():
    """Redis keeps serving reads but holds writes back for a while (CLIENT PAUSE WRITE, as in
    a failover or a stalled primary). A submission that cannot mark its link's count as
    changing is refused (503, nothing stored), so no read can show a count without it; once
    Redis writes again submissions are accepted and counted by every read that follows."""
    ws = Workspace()
    link = ws.link(slug="stall", questions=COMMENT)
    L = link["uuid"]
    ws.complete("stall", {"comment": "first"})
    assert expect(ws.call("GET", f"links/{L}/"), 200)["response_count"] == 1
    assert redis_count(L) == "1"
    before = (link_counts(L), len(outbox(L)))
    assert redis("CLIENT", "PAUSE", "3000", "WRITE") == "OK"
    try:
        r = ws.oneshot("stall", {"comment": "during the stall"})
        refused = expect(r, 503, "SERVICE_UNAVAILABLE")
        assert r.header("Retry-After"), r
        stored_meanwhile = (link_counts(L), len(outbox(L)))
        count_meanwhile = expect(ws.call("GET", f"links/{L}/"), 200)["response_count"]
    finally:
        redis("CLIENT", "UNPAUSE")
    assert refused and stored_meanwhile == before, f"a refused submission stored {stored_meanwhile}"
    assert count_meanwhile == 1, count_meanwhile
    # As a client told Retry-After would: the first tries may still meet the reconnection.
    deadline = time.monotonic() + 10
    while (r := ws.oneshot("stall", {"comment": "second"})).status == 503 and time.monotonic() < deadline:
        time.sleep(0.2)
    expect(r, 201)
    got = (expect(ws.call("GET", f"links/{L}/"), 200)["response_count"],
           [x["response_count"] for x in expect(ws.call("GET", "links/"), 200)["results"] if x["uuid"] == L])
    assert got == (2, [2]), f"a read after the submit was answered showed response_count {got}, expected 2"

