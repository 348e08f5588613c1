"""Pages of a link's completed responses kept by the gateways (routes/response_page_cache.h):
never hiding an answered submission on any replica, never kept while a submission is pending
or under a token that no longer names the link's count, dropped with the token, and read
afresh on Cache-Control: no-cache."""
import re
import time
import urllib.parse
import urllib.request

import harness
from harness import Workspace, expect, redis, sql, test, wait_until
from test_responses import COMMENT, ok, uuids

def page_cache_outcomes(admin_url):
    """gateway_response_page_cache_total of one gateway, by outcome."""
    with urllib.request.urlopen(admin_url + "metrics", timeout=10) as r:
        text = r.read().decode()
    return {k: int(v) for k, v in re.findall(r'gateway_response_page_cache_total\{outcome="(\w+)"\} (\d+)', text)}


@test
def kept_pages_never_hide_an_acknowledged_submission_on_any_replica():
    """Each gateway keeps pages of a link's completed responses (routes/response_page_cache.h);
    still every read that follows an acknowledged submission shows it, through either replica,
    for the first page, a later page and a search, whether the response was made in one call
    or started and then submitted. In-progress lists are never kept: a start and a saved
    answer show at once."""
    from test_link_cache import SecondGateway
    ws = Workspace()
    link = ws.link(slug="kept", questions=COMMENT)
    L = link["uuid"]
    completed = [ws.complete("kept", {"comment": f"seed {i} needle"})["uuid"] for i in range(3)]
    completed.reverse()  # newest first, the default ordering
    with SecondGateway() as b:
        on_a = lambda method, path, **kw: ws.call(method, path, **kw)
        on_b = lambda method, path, **kw: b.call(ws, method, path, **kw)

        def listed(read, **query):
            j = expect(read("GET", f"links/{L}/responses/?" + urllib.parse.urlencode(query)), 200)
            return j["count"], uuids(j)

        def every_view(read):
            return (listed(read, page_size=2), listed(read, page_size=2, page=2),
                    listed(read, search="NEEDLE", page_size=2))

        def expected():
            n = len(completed)
            return ((n, completed[:2]), (n, completed[2:4]), (n, completed[:2]))

        metrics_before = page_cache_outcomes(harness.ENV["ADMIN_URL"])
        for _ in range(3):  # the first read of each view keeps its page; later ones reuse it
            for read in (on_a, on_b):
                assert every_view(read) == expected()
        for i in range(6):
            via, other = (on_a, on_b) if i % 2 == 0 else (on_b, on_a)
            if i % 3 == 0:
                made = expect(ws.oneshot("kept", {"comment": f"new {i} needle"}), 201)["uuid"]
            else:
                st = ws.start("kept")
                expect(ws.answer("kept", st, "comment", f"draft {i}"), 200)
                for read in (other, via):
                    assert listed(read, status="in_progress") == (1, [st["uuid"]])
                    assert every_view(read) == expected(), "a start changed the completed list"
                expect(ws.submit("kept", st, {"comment": f"new {i} needle"}), 200)
                made = st["uuid"]
            completed.insert(0, made)
            for _ in range(2):
                for read in (other, via):
                    got = every_view(read)
                    assert got == expected(), f"after submission {i} via {'A' if via is on_a else 'B'}: {got}"
                    assert listed(read, status="in_progress") == (0, [])
        after_a, after_b = page_cache_outcomes(harness.ENV["ADMIN_URL"]), page_cache_outcomes(b.admin_url)
    assert after_a["hit"] - metrics_before["hit"] >= 20, (metrics_before, after_a)
    assert after_b["hit"] >= 20 and after_b["miss"] >= 1, after_b


@test
def kept_pages_are_dropped_when_the_links_token_is_lost():
    """The changes token gone from Redis (expired, flushed, or dropped by seed-responses after
    writing behind the service's back): pages kept under it are never served again."""
    ws = Workspace()
    link = ws.link(slug="token", questions=COMMENT)
    L = link["uuid"]
    first = ws.complete("token", {"comment": "one"}, email="before@example.com")["uuid"]
    emails = lambda: [r["respondent_email"] for r in ok(ws, L)["results"]]
    for _ in range(2):
        assert emails() == ["before@example.com"]
    before = page_cache_outcomes(harness.ENV["ADMIN_URL"])
    assert emails() == ["before@example.com"]
    assert page_cache_outcomes(harness.ENV["ADMIN_URL"])["hit"] == before["hit"] + 1, "the page was not kept"
    # Written behind the service's back, as the seeding script does, then the token dropped.
    sql(f"UPDATE responses.responses SET respondent_email = 'after@example.com' WHERE uuid = '{first}'")
    redis("DEL", f"fb:link:{{{L}}}:changes")
    before = page_cache_outcomes(harness.ENV["ADMIN_URL"])
    assert emails() == ["after@example.com"]
    after = page_cache_outcomes(harness.ENV["ADMIN_URL"])
    assert after["bypassed"] == before["bypassed"] + 1 and after["hit"] == before["hit"], (before, after)
    wait_until(lambda: redis("GET", f"fb:link:{{{L}}}:changes"), timeout=5, what="a new token")
    assert emails() == ["after@example.com"] and emails() == ["after@example.com"]
    assert page_cache_outcomes(harness.ENV["ADMIN_URL"])["hit"] == after["hit"] + 1
    # Cache-Control: no-cache reads afresh even while a kept page is current.
    sql(f"UPDATE responses.responses SET respondent_email = 'fresh@example.com' WHERE uuid = '{first}'")
    fresh = expect(ws.call("GET", f"links/{L}/responses/", headers={"Cache-Control": "No-Cache"}), 200)
    assert [r["respondent_email"] for r in fresh["results"]] == ["fresh@example.com"]


@test
def pages_are_kept_again_after_redis_lost_the_links_keys():
    """A restarted Redis holds nothing (it keeps no snapshot): reads of the list alone, with
    no read of the link's document, fill the count again, then a token, then keep pages."""
    ws = Workspace()
    link = ws.link(slug="restart", questions=COMMENT)
    L = link["uuid"]
    ws.complete("restart", {"comment": "one"})
    for key in ("responses", "changes", "pending"):
        redis("DEL", f"fb:link:{{{L}}}:{key}")
    before = page_cache_outcomes(harness.ENV["ADMIN_URL"])
    assert ok(ws, L)["count"] == 1
    wait_until(lambda: redis("GET", f"fb:link:{{{L}}}:responses") == "1", timeout=5,
               what="the count filled by a list read")
    assert ok(ws, L)["count"] == 1
    wait_until(lambda: redis("GET", f"fb:link:{{{L}}}:changes"), timeout=5, what="a token")
    for _ in range(2):
        assert ok(ws, L)["count"] == 1
    after = page_cache_outcomes(harness.ENV["ADMIN_URL"])
    assert after["hit"] >= before["hit"] + 1, (before, after)


@test
def pages_are_not_kept_while_a_submission_is_pending_or_the_token_names_another_count():
    """Neither while a submission is pending nor after a settlement that raised the count and
    kept the token (a responses service from before tokens); the next read gives the link a
    token for the count it found."""
    ws = Workspace()
    link = ws.link(slug="pending-pages", questions=COMMENT)
    L = link["uuid"]
    ws.complete("pending-pages", {"comment": "one"})
    for _ in range(2):
        ok(ws, L)
    outcomes = lambda: page_cache_outcomes(harness.ENV["ADMIN_URL"])
    before = outcomes()
    ok(ws, L)
    assert outcomes()["hit"] == before["hit"] + 1
    # A submission begun and not settled (its commit may be visible already).
    redis("ZADD", f"fb:link:{{{L}}}:pending", str(int(time.time() * 1000)), "in-flight")
    before = outcomes()
    assert ok(ws, L)["count"] == 1
    after = outcomes()
    assert (after["bypassed"], after["hit"]) == (before["bypassed"] + 1, before["hit"]), (before, after)
    redis("ZREM", f"fb:link:{{{L}}}:pending", "in-flight")
    ok(ws, L)
    assert outcomes()["hit"] == after["hit"] + 1
    # A settlement from a responses service that predates tokens raises the count and leaves
    # the token: kept pages no longer match.
    token = redis("GET", f"fb:link:{{{L}}}:changes")
    assert token.startswith("1:"), token
    sql(f"UPDATE responses.responses SET respondent_email = 'behind@example.com' WHERE link_uuid = '{L}'")
    redis("SET", f"fb:link:{{{L}}}:responses", "2")
    before = outcomes()
    assert [r["respondent_email"] for r in ok(ws, L)["results"]] == ["behind@example.com"]
    after = outcomes()
    assert (after["bypassed"], after["hit"]) == (before["bypassed"] + 1, before["hit"]), (before, after)
    # That read gave the link a token naming the count it found; pages are kept again.
    wait_until(lambda: redis("GET", f"fb:link:{{{L}}}:changes").startswith("2:"), timeout=5,
               what="a token naming the new count")
    for _ in range(2):
        assert [r["respondent_email"] for r in ok(ws, L)["results"]] == ["behind@example.com"]
    assert outcomes()["hit"] == after["hit"] + 1


@test
def a_time_bound_at_the_epoch_keeps_a_page_of_its_own():
    """until=1970-01-01 (zero microseconds) is a bound, not the absence of one: its empty page
    must never be served for the default list, nor the other way round."""
    ws = Workspace()
    link = ws.link(slug="epoch-bound", questions=COMMENT)
    L = link["uuid"]
    made = ws.complete("epoch-bound", {"comment": "one"})["uuid"]
    for _ in range(3):
        assert ok(ws, L, until="1970-01-01T00:00:00Z")["count"] == 0
        assert ok(ws, L, since="1970-01-01T00:00:00Z")["count"] == 1
        assert uuids(ok(ws, L)) == [made]
