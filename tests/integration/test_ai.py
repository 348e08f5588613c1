"""AI insights and dynamic probing on a real stack (API-CONTRACT.md section 9), with the
default local evaluator: insights filled as answers are saved and submitted, follow-ups through
the intake API up to max_follow_ups, stored with the answer and found by search."""
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
