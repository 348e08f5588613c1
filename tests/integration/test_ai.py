"""AI insights and dynamic probing on a real stack (docs/api.md "AI insights and summaries"),
with the default local evaluator: insights filled as answers are saved and submitted,
follow-ups through the intake API up to max_follow_ups, stored with the answer and found by
search."""
import harness
from harness import Workspace, expect, sql_json, test

LONG = ("The checkout page was slow and crashed twice while I was paying with my credit card. "
        "The support team answered quickly and refunded the duplicate charge, which I appreciated. "
        "Please fix the payment form, improve the search filters, add a dark mode to the mobile app "
        "and send shipping updates by email, because the delivery of my last order took three weeks "
        "and nobody told me why.")


def _by_key(record):
    return {a["field_key"]: a for a in record["answers"]}


@test
def submitted_text_answers_carry_insights_and_other_types_none():
    ws = Workspace()
    link = ws.link(slug="ins", questions=[
        {"prompt": "Comments", "type": "text", "field_key": "comment"},
        {"prompt": "Why?", "type": "voice_text_fallback", "field_key": "why",
         "evaluator_config": {"custom_fields": ["payment_form", "delivery_time"]}},
        {"prompt": "Said", "type": "voice", "field_key": "said",
         "configuration": {"enable_ai_evaluation": False}},
        {"prompt": "Score", "type": "rating", "field_key": "score"}])
    rec = ws.complete("ins", {"comment": "I love the new dashboard!", "why": LONG,
                              "said": "This is awful", "score": 4})
    got = _by_key(rec)
    c = got["comment"]["ai_insights"]
    assert c["sentiment"] == "positive" and c["sentiment_score"] > 0.5, c
    assert c["actionable"] is False and c["summary"] == "I love the new dashboard!", c
    assert c["key_topics"] == ["new dashboard", "love"], c
    w = got["why"]["ai_insights"]
    assert w["actionable"] is True and len(w["summary"]) <= 200 and len(w["key_topics"]) == 5, w
    assert w["custom_fields"]["payment_form"].startswith("Please fix the payment form"), w
    assert w["custom_fields"]["delivery_time"] is None, w  # "time" is never said
    assert got["said"]["ai_insights"] == {} and got["score"]["ai_insights"] == {}
    # What the API reads is what was stored.
    detail = expect(ws.call("GET", f"links/{link['uuid']}/responses/{rec['uuid']}/"), 200)
    assert _by_key(detail)["why"]["ai_insights"] == w


@test
def probing_asks_follow_ups_until_max_and_keeps_them_with_the_answer():
    ws = Workspace()
    link = ws.link(slug="probe", questions=[
        {"prompt": "What should we change?", "type": "text", "field_key": "change",
         "enable_dynamic_probing": True,
         "evaluator_config": {"clarity_threshold": 0.7, "max_follow_ups": 3,
                              "custom_fields": ["pricing"]}}])
    st = ws.start("probe")
    a = expect(ws.answer("probe", st, "change", "stuff"), 200)
    prompts = [a["follow_up"]]
    assert prompts[0] == "Could you tell us more about pricing?", a
    assert a["follow_ups"] == []
    path = f"/i/probe/responses/{st['uuid']}/answers/change/follow_ups/"
    # While a prompt is pending: the token first, then the body's rules.
    expect(ws.intake("POST", path, token="wrong", json={"value": "x"}), 404, None)
    expect(ws.intake("POST", path, token=st["token"], json={"value": 5}), 400, "INVALID_ANSWER")
    expect(ws.intake("POST", path, token=st["token"], json={"value": "x", "extra": 1}), 400,
           "VALIDATION_ERROR")
    for value in ("the plans", "zebrafish"):
        a = expect(ws.intake("POST", path, token=st["token"], json={"value": value}), 200)
        assert a["follow_up"], a
        prompts.append(a["follow_up"])
    a = expect(ws.intake("POST", path, token=st["token"], json={"value": "too expensive"}), 200)
    assert [f["value"] for f in a["follow_ups"]] == ["the plans", "zebrafish", "too expensive"]
    assert [f["prompt"] for f in a["follow_ups"]] == prompts
    assert a["follow_up"] is None, a  # max_follow_ups reached
    expect(ws.intake("POST", path, token=st["token"], json={"value": "more"}), 409,
           "NO_FOLLOW_UP_PENDING")
    rows = sql_json(f"SELECT answers::json AS a FROM responses.responses WHERE uuid = '{st['uuid']}'")
    assert [f["value"] for f in rows[0]["a"][0]["follow_ups"]] == ["the plans", "zebrafish",
                                                                    "too expensive"]
    rec = expect(ws.submit("probe", st), 200)
    done = _by_key(rec)["change"]
    assert done["follow_up"] is None and len(done["follow_ups"]) == 3
    # Follow-up answers are part of the answer's text: its insights and search see them.
    assert done["ai_insights"]["custom_fields"] == {"pricing": None}
    found = expect(ws.call("GET", f"links/{link['uuid']}/responses/?search=zebrafish"), 200)
    assert [r["uuid"] for r in found["results"]] == [st["uuid"]]
    expect(ws.intake("POST", path, token=st["token"], json={"value": "late"}), 409,
           "RESPONSE_ALREADY_SUBMITTED")


SUMMARY_QUESTIONS = [
    {"prompt": "NPS", "type": "rating", "field_key": "nps", "configuration": {"scale_type": "nps"}},
    {"prompt": "Stars", "type": "rating", "field_key": "stars", "configuration": {"max_value": 5}},
    {"prompt": "Plan", "type": "multiple_choice", "field_key": "plan",
     "configuration": {"options": ["basic", "pro"], "allow_multiple": True}},
    {"prompt": "Seats", "type": "number", "field_key": "seats"},
    {"prompt": "Comment", "type": "text", "field_key": "comment"}]


def _summary(ws, link, query=""):
    return expect(ws.call("GET", f"links/{link['uuid']}/summary/{query}"), 200)


def _stats(summary, key):
    return next(q for q in summary["questions"] if q["field_key"] == key)


@test
def the_summary_of_known_answers_is_exact():
    ws = Workspace()
    link = ws.link(slug="sum", questions=SUMMARY_QUESTIONS)
    rows = [{"nps": 10, "stars": 5, "plan": ["pro"], "seats": 4, "comment": "Love it!"},
            {"nps": 9, "stars": 3, "plan": ["pro", "basic"], "seats": 10},
            {"nps": 7, "stars": 2, "seats": 1, "comment": "The export is broken, please fix it."},
            {"nps": 3, "plan": ["basic"], "comment": "Terrible support."},
            {"nps": 0, "stars": 5}]
    recs = [ws.complete("sum", row) for row in rows]
    ws.start("sum")  # one more started, never completed
    s = _summary(ws, link)
    assert (s["link_uuid"], s["response_count"], s["started_count"]) == (link["uuid"], 5, 6), s
    assert abs(s["completion_rate"] - 5 / 6) < 1e-9, s
    nps = _stats(s, "nps")
    assert nps["answered"] == 5
    assert nps["stats"]["nps"] == 0 and (nps["stats"]["promoters"], nps["stats"]["passives"],
                                         nps["stats"]["detractors"]) == (2, 1, 2), nps
    assert nps["stats"]["distribution"]["10"] == 1 and len(nps["stats"]["distribution"]) == 11
    stars = _stats(s, "stars")["stats"]
    assert stars["average"] == 3.75 and stars["distribution"] == {"1": 0, "2": 1, "3": 1, "4": 0,
                                                                  "5": 2}, stars
    assert _stats(s, "plan")["stats"] == {"counts": {"basic": 2, "pro": 2}}
    assert _stats(s, "seats")["stats"] == {"min": 1, "max": 10, "mean": 5, "median": 4}
    text = _stats(s, "comment")
    assert text["answered"] == 3 and text["stats"]["sentiment"] == {"positive": 1, "neutral": 0,
                                                                   "negative": 2}, text
    assert text["stats"]["actionable"] == 1, text
    # Bounds on submitted_at, inclusive.
    first, last = recs[0]["submitted_at"], recs[-1]["submitted_at"]
    assert _summary(ws, link, f"?since={last}")["response_count"] == 1
    assert _summary(ws, link, f"?until={first}")["response_count"] == 1
    expect(ws.call("GET", f"links/{link['uuid']}/summary/?since=yesterday"), 400, "VALIDATION_ERROR")
    # Other workspaces, scopes, unknown links.
    expect(Workspace().call("GET", f"links/{link['uuid']}/summary/"), 404, None)
    links_only = ws.token(["links:read"])["key"]
    expect(harness.request("GET", f"/v1/links/{link['uuid']}/summary/", key=links_only), 403,
           "INSUFFICIENT_SCOPE")
    expect(ws.call("GET", "links/00000000-0000-4000-8000-000000000000/summary/"), 404, None)


@test
def responses_completed_before_summaries_get_their_facts_at_start_up():
    ws = Workspace()
    link = ws.link(slug="old", questions=SUMMARY_QUESTIONS)
    recs = [ws.complete("old", {"nps": 10, "seats": 3}), ws.complete("old", {"nps": 0, "seats": 5})]
    # As a database from before migration 003 has them: completed responses without facts.
    harness.sql(f"DELETE FROM responses.response_facts WHERE link_uuid = '{link['uuid']}'")
    harness.sql("UPDATE responses.backfills SET done = false WHERE name = 'response_facts'")
    assert _summary(ws, link)["response_count"] == 0
    harness.stack("stop-service", "responses")
    harness.stack("start-service", "responses")
    harness.wait_until(lambda: harness.sql(
        "SELECT done FROM responses.backfills WHERE name = 'response_facts'")[0][0] == "t",
        30, "the backfill done")
    s = _summary(ws, link)
    assert s["response_count"] == 2 and _stats(s, "nps")["stats"]["nps"] == 0, s
    assert _stats(s, "seats")["stats"]["median"] == 4
    assert {r["uuid"] for r in recs} == {x[0] for x in harness.sql(
        f"SELECT response_uuid FROM responses.response_facts WHERE link_uuid = '{link['uuid']}'")}


MODEL_KEY = "sk-model-secret-5f2e9a"
STUB_TEXTS = {"good": "The good export works.", "nonsense": "A nonsense answer about exports.",
              "slow": "A slow reply about the slow export.", "broken": "The broken export fails.",
              "flaky": "The flaky export fails sometimes."}


def _model_stack(stub, **extra):
    settings = dict(AI_EVALUATOR="openai", AI_BASE_URL=stub.base_url, AI_MODEL="stub-model",
                    AI_API_KEY=MODEL_KEY, AI_TIMEOUT_MS="500", AI_MAX_ATTEMPTS="2",
                    AI_RETRY_DELAY_MS="100", AI_REST_AFTER_FAILURES="1000", ACCESS_LOG="true")
    settings.update(extra)
    return harness.ExtraProcess("responses", log_name="responses-openai", **settings)


def _wait_insights(ws, link, rec_uuid, keys, timeout=30):
    got = {}

    def filled():
        nonlocal got
        got = _by_key(expect(ws.call("GET", f"links/{link['uuid']}/responses/{rec_uuid}/"), 200))
        return all(got[k]["ai_insights"] for k in keys)
    harness.wait_until(filled, timeout, "insights from the model-server evaluator")
    return {k: got[k]["ai_insights"] for k in keys}


@test
def the_model_server_evaluator_fills_insights_off_the_request_path_and_falls_back_locally():
    from chat_stub import ChatStub, MODEL_INSIGHTS
    questions = [{"prompt": f"About {k}?", "type": "text", "field_key": k} for k in STUB_TEXTS]
    local_ws = Workspace()
    local_ws.link(slug="local", questions=questions)
    local = _by_key(local_ws.complete("local", STUB_TEXTS))  # the stack's local evaluator
    ws = Workspace()
    link = ws.link(slug="model", questions=questions)
    with ChatStub() as stub, _model_stack(stub) as responses, \
            harness.ExtraProcess("gateway", log_name="gateway-openai",
                                 RESPONSES_ADDR=f"127.0.0.1:{responses.port}") as gw:
        r = harness.intake(ws.info["host"], "POST", "/i/model/submit/", json={"answers": STUB_TEXTS},
                           gateway=f"127.0.0.1:{gw.port}")
        rec = expect(r, 201)
        # Answered before any model call: the insights are not there yet.
        assert all(a["ai_insights"] == {} for a in rec["answers"]), rec
        got = _wait_insights(ws, link, rec["uuid"], STUB_TEXTS)
        assert got["good"] == MODEL_INSIGHTS and got["flaky"] == MODEL_INSIGHTS, got
        for k in ("nonsense", "slow", "broken"):  # the local evaluator answered instead
            assert got[k] == local[k]["ai_insights"], (k, got[k])
        assert [len(stub.calls(w)) for w in ("good", "flaky", "nonsense", "slow", "broken")] == \
            [1, 2, 2, 2, 2], [len(stub.calls(w)) for w in STUB_TEXTS]
        call = stub.calls("good")[0]
        assert call["path"] == "/v1/chat/completions"
        assert call["headers"]["Authorization"] == f"Bearer {MODEL_KEY}"
        assert call["body"]["model"] == "stub-model"
        assert call["body"]["response_format"] == {"type": "json_object"}
        # The summary counts what the model said.
        s = _summary(ws, link)
        assert _stats(s, "good")["stats"]["sentiment"] == {"positive": 0, "neutral": 0, "negative": 1}
        log = open(responses.log_path).read()
    assert MODEL_KEY not in log, "the model server's API key was logged"
    assert harness.sql("SELECT count(*) FROM responses.insight_jobs "
                       f"WHERE response_uuid = '{rec['uuid']}'") == [["0"]]


@test
def an_insight_job_survives_the_death_of_its_worker():
    from chat_stub import ChatStub, MODEL_INSIGHTS
    ws = Workspace()
    link = ws.link(slug="dies", questions=[{"prompt": "Why?", "type": "text", "field_key": "why"}])
    # The model answers after 3 s; the first process is killed while it waits.
    with ChatStub(slow_seconds=3) as stub:
        with _model_stack(stub, AI_TIMEOUT_MS="5000") as first, \
                harness.ExtraProcess("gateway", log_name="gateway-openai",
                                     RESPONSES_ADDR=f"127.0.0.1:{first.port}") as gw:
            rec = expect(harness.intake(ws.info["host"], "POST", "/i/dies/submit/",
                                        json={"answers": {"why": "A slow answer."}},
                                        gateway=f"127.0.0.1:{gw.port}"), 201)
            harness.wait_until(lambda: stub.calls("slow"), 10, "the first model call")
            first.kill()
        # Its claim runs out (twice the 5 s timeout and 10 s) and another worker takes the job.
        with _model_stack(stub, AI_TIMEOUT_MS="5000"):
            got = _wait_insights(ws, link, rec["uuid"], ["why"], timeout=40)
        assert got["why"] == MODEL_INSIGHTS, got
        assert len(stub.calls("slow")) == 2


def _model_gateway(responses):
    return harness.ExtraProcess("gateway", log_name="gateway-openai",
                                RESPONSES_ADDR=f"127.0.0.1:{responses.port}")


@test
def a_failing_model_server_rests_and_the_local_evaluator_answers_meanwhile():
    from chat_stub import ChatStub
    ws = Workspace()
    link = ws.link(slug="rest", questions=[{"prompt": "Why?", "type": "text", "field_key": "why"}])
    with ChatStub() as stub, _model_stack(stub, AI_REST_AFTER_FAILURES="2", AI_REST_MS="60000",
                                          AI_MAX_ATTEMPTS="1", AI_WORKERS="1") as responses, \
            _model_gateway(responses) as gw:
        recs = [expect(harness.intake(ws.info["host"], "POST", "/i/rest/submit/",
                                      json={"answers": {"why": f"The broken export {i}."}},
                                      gateway=f"127.0.0.1:{gw.port}"), 201) for i in range(5)]
        for rec in recs:
            assert _wait_insights(ws, link, rec["uuid"], ["why"])["why"]["summary"].startswith(
                "The broken export")
        # Two failed calls in a row rest the server: the other answers never wait for it.
        assert len(stub.calls("broken")) == 2, len(stub.calls("broken"))


@test
def a_newer_answer_replaces_the_job_queued_for_the_older_one():
    from chat_stub import ChatStub
    ws = Workspace()
    ws.link(slug="newer", questions=[{"prompt": "Why?", "type": "text", "field_key": "why"}])
    with ChatStub(slow_seconds=2) as stub, _model_stack(stub, AI_TIMEOUT_MS="5000") as responses, \
            _model_gateway(responses) as gw:
        st = expect(harness.intake(ws.info["host"], "POST", "/i/newer/responses/", json={},
                                   gateway=f"127.0.0.1:{gw.port}"), 201)

        def save(value):
            return expect(harness.intake(ws.info["host"], "PUT",
                                         f"/i/newer/responses/{st['uuid']}/answers/why/",
                                         token=st["token"], json={"value": value},
                                         gateway=f"127.0.0.1:{gw.port}"), 200)
        first = save("A slow first answer.")
        harness.wait_until(lambda: stub.calls("slow first"), 10, "the first job's model call")
        # Slow too: a free worker would otherwise finish its job before the queue is read.
        save("The final answer, slow too.")
        jobs = harness.sql(f"SELECT text FROM responses.insight_jobs WHERE answer_uuid = '{first['uuid']}'")
        assert jobs == [["The final answer, slow too."]], jobs
        harness.wait_until(lambda: stub.calls("final answer"), 10, "the second job's model call")
        harness.wait_until(lambda: harness.sql(
            f"SELECT count(*) FROM responses.insight_jobs WHERE answer_uuid = '{first['uuid']}'")
            == [["0"]], 15, "no job left")
        assert len(stub.calls("slow first")) == 1


@test
def jobs_left_by_a_model_server_are_finished_by_the_local_evaluator():
    ws = Workspace()
    link = ws.link(slug="left", questions=[{"prompt": "Why?", "type": "text", "field_key": "why"}])
    rec = ws.complete("left", {"why": "I love the new dashboard!"})
    answer = _by_key(rec)["why"]
    # As after AI_EVALUATOR=openai: the answer without insights, its job queued.
    stored = harness.sql_json(f"SELECT answers FROM responses.responses WHERE uuid = '{rec['uuid']}'")
    answers = harness.jsonlib.loads(stored[0]["answers"])
    answers[0]["ai_insights"] = {}
    harness.sql(f"UPDATE responses.responses SET answers = $${harness.jsonlib.dumps(answers)}$$ "
                f"WHERE uuid = '{rec['uuid']}'")
    harness.sql("INSERT INTO responses.insight_jobs (workspace_uuid, response_uuid, answer_uuid, "
                f"question, custom_fields, text) VALUES ('{ws.uuid}', '{rec['uuid']}', "
                f"'{answer['uuid']}', 'Why?', '[]', 'I love the new dashboard!')")
    got = _wait_insights(ws, link, rec["uuid"], ["why"], timeout=20)
    assert got["why"] == answer["ai_insights"], got
