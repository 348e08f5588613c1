"""The 19 question types beyond the 13 and the logic of docs/api.md "Question types" and "Logic
and recall", through the API against the stack: configurations echoed and refused with their
details paths, every answer read back in its stored form (and as the database holds it),
summary statistics, search over the new types' text, signatures uploaded as PNG, groups,
operators and dotted fields deciding visibility, hidden_field defaults, and recall."""
import json
import urllib.parse

import media_files
from harness import Workspace, expect, sql, test

ROWS = [{"id": "speed", "label": "Speed"}, {"id": "price", "label": "Price"}]
COLUMNS = [{"id": "bad", "label": "Bad"}, {"id": "ok", "label": "OK"}, {"id": "good", "label": "Good"}]

NEW_TYPES = [
    {"field_key": "story", "type": "long_text", "prompt": "Tell us", "configuration": {"max_characters": 2000}},
    {"field_key": "phone", "type": "phone_number", "prompt": "Phone", "configuration": {"default_country": "US"}},
    {"field_key": "site", "type": "url", "prompt": "Website"},
    {"field_key": "plan", "type": "dropdown", "prompt": "Plan", "configuration": {"options": ["free", "pro", "team"]}},
    {"field_key": "nps", "type": "nps", "prompt": "Recommend?"},
    {"field_key": "scale", "type": "opinion_scale", "prompt": "Opinion",
     "configuration": {"steps": 7, "start_at_one": False}},
    {"field_key": "csat", "type": "csat", "prompt": "Satisfied?"},
    {"field_key": "effort", "type": "ces", "prompt": "Effort"},
    {"field_key": "budget", "type": "slider", "prompt": "Budget",
     "configuration": {"min": 0, "max": 1000, "step": 50, "range": True, "unit": "EUR"}},
    {"field_key": "grid", "type": "matrix", "prompt": "Rate", "configuration": {"rows": ROWS, "columns": COLUMNS}},
    {"field_key": "rank", "type": "ranking", "prompt": "Rank", "configuration": {"options": ["speed", "price", "support"]}},
    {"field_key": "contact", "type": "contact_info", "prompt": "Contact"},
    {"field_key": "addr", "type": "address", "prompt": "Address"},
    {"field_key": "terms", "type": "consent", "prompt": "Terms", "configuration": {"text": "I agree."}},
    {"field_key": "sig", "type": "signature", "prompt": "Sign"},
    {"field_key": "slot", "type": "time", "prompt": "Time", "configuration": {"min": "08:00", "max": "18:00"}},
    {"field_key": "when", "type": "datetime", "prompt": "When"},
    {"field_key": "trip", "type": "date_range", "prompt": "Trip"},
    {"field_key": "src", "type": "hidden_field", "prompt": "Source", "configuration": {"default_value": "direct"}},
]

# field_key -> (sent, stored)
GOOD = {
    "story": ("A long story " * 20, "A long story " * 20),
    "phone": ("(415) 555-0123", "+14155550123"),
    "site": ("https://example.com/a?b=1#c", "https://example.com/a?b=1#c"),
    "plan": ("team", "team"),
    "nps": (9, 9),
    "scale": (0, 0),
    "csat": (4, 4),
    "effort": (2, 2),
    "budget": ([100, 450], [100, 450]),
    "grid": ({"speed": "good", "price": "ok"}, {"speed": "good", "price": "ok"}),
    "rank": (["support", "speed", "price"], ["support", "speed", "price"]),
    "contact": ({"first_name": "Ada", "email": "ada@example.com", "phone": "+44 7400 123456"},
                {"first_name": "Ada", "email": "ada@example.com", "phone": "+447400123456"}),
    "addr": ({"line1": "10 Downing Street", "city": "Westminster", "country": "gb"},
             {"line1": "10 Downing Street", "city": "Westminster", "country": "GB"}),
    "terms": (True, True),
    "slot": ("09:30", "09:30"),
    "when": ("2024-03-10T12:30:00+02:00", "2024-03-10T10:30:00.000000Z"),
    "trip": ({"start": "2024-07-01", "end": "2024-07-14"}, {"start": "2024-07-01", "end": "2024-07-14"}),
    "src": ("newsletter", "newsletter"),
}

# field_key -> values refused with INVALID_ANSWER naming it
BAD = {
    "story": ["x" * 2001, 5],
    "phone": ["555", "call me"],
    "site": ["ftp://example.com", "example.com"],
    "plan": ["gold"],
    "nps": [11, -1, 7.5],
    "scale": [7],
    "csat": [0, 6],
    "effort": [8],
    "budget": [[450, 100], [100, 460], 100],
    "grid": [{"speed": "great"}, {"looks": "good"}],
    "rank": [["speed", "price"], ["speed", "speed", "price"]],
    "contact": [{"email": "nope"}, {"fax": "1"}],
    "addr": [{"line1": "x", "city": "y"}, {"line1": "x", "city": "y", "country": "UK"}],
    "terms": [False, "yes"],
    "slot": ["07:59", "9:30"],
    "when": ["2024-03-10T12:30:00", "2024-03-10"],
    "trip": [{"start": "2024-07-14", "end": "2024-07-01"}, {"start": "2024-07-01"}],
    "src": ["x" * 1001, 3],
}


def by_key(record):
    return {a["field_key"]: a for a in record["answers"]}


def leaf(field, op, value=None):
    out = {"show_if": "field_value", "field": field, "operator": op}
    if value is not None:
        out["value"] = value
    return out


def refused(ws, questions, code, path, **extra):
    r = ws.call("POST", "links/", json=dict({"name": "Refused", "questions": questions}, **extra))
    e = expect(r, 400, code)["error"]
    assert path in e["details"], (path, e)


@test
def new_types_are_echoed_and_answered_in_their_stored_form():
    ws = Workspace()
    link = ws.link(slug="types", questions=[q for q in NEW_TYPES if q["type"] != "signature"])
    for sent, got in zip([q for q in NEW_TYPES if q["type"] != "signature"], link["questions"]):
        assert (got["response_type"], got["configuration"]) == (sent["type"], sent.get("configuration", {})), got
    rec = ws.complete("types", {k: sent for k, (sent, _) in GOOD.items()})
    detail = expect(ws.call("GET", f"links/{link['uuid']}/responses/{rec['uuid']}/"), 200)
    for body in (rec, detail):
        got = by_key(body)
        for key, (_, stored) in GOOD.items():
            assert got[key]["value"] == stored, (key, got[key])
    assert by_key(rec)["nps"]["rating_details"] == {"value": 9, "max_value": 10, "scale_type": "nps"}
    stored = json.loads(sql(f"SELECT answers FROM responses.responses WHERE uuid = '{rec['uuid']}'")[0][0])
    assert {a["field_key"]: a.get("value") for a in stored}["phone"] == "+14155550123", stored
    for key, values in BAD.items():
        for value in values:
            e = expect(ws.oneshot("types", {key: value}), 400, "INVALID_ANSWER")["error"]
            assert key in e["details"], (key, value, e)
    # Left blank: unanswered, not wrong.
    rec = ws.complete("types", {"addr": {}, "grid": {}})
    assert "addr" not in by_key(rec) and "grid" not in by_key(rec)
    # Saved one by one, an empty object clears an answer as null does.
    st = ws.start("types")
    expect(ws.answer("types", st, "addr", GOOD["addr"][0]), 200)
    a = expect(ws.answer("types", st, "addr", {}), 200)
    assert a.get("value") is None, a
    assert "addr" not in by_key(expect(ws.submit("types", st), 200))
    # A required consent must be given; an answer given but incomplete is wrong, not missing.
    ws.link(slug="must", questions=[{"field_key": "terms", "type": "consent", "prompt": "Terms", "required": True,
                                     "configuration": {"text": "I agree."}},
                                    {"field_key": "addr", "type": "address", "prompt": "Address", "required": True}])
    expect(ws.oneshot("must", {"addr": {"line1": "x", "city": "y", "country": "FR"}}), 400, "REQUIRED_ANSWER_MISSING")
    expect(ws.oneshot("must", {"terms": True, "addr": {"line1": "x"}}), 400, "INVALID_ANSWER")
    expect(ws.oneshot("must", {"terms": True, "addr": {}}), 400, "REQUIRED_ANSWER_MISSING")


@test
def wrong_configurations_name_their_path():
    ws = Workspace()
    for kind, configuration, key in (
            ("long_text", {"max_characters": 0}, "max_characters"),
            ("phone_number", {"default_country": "USA"}, "default_country"),
            ("dropdown", {"options": []}, "options"),
            ("opinion_scale", {"steps": 12}, "steps"),
            ("csat", {"labels": ["a"]}, "labels"),
            ("slider", {"step": 0}, "step"),
            ("matrix", {"rows": ROWS}, "columns"),
            ("ranking", {"options": ["only"]}, "options"),
            ("contact_info", {"fields": {"fax": {}}}, "fields.fax"),
            ("consent", {}, "text"),
            ("signature", {"max_size_kb": 1025}, "max_size_kb"),
            ("time", {"min": "25:00"}, "min"),
            ("date_range", {"max_date": "31/12/2024"}, "max_date"),
            ("hidden_field", {"default_value": 5}, "default_value"),
            ("ces", {"steps": 7}, "steps")):
        refused(ws, [{"prompt": "Q", "type": kind, "configuration": configuration}], "INVALID_CONFIGURATION",
                f"questions[0].configuration.{key}")
    refused(ws, [{"prompt": "Q", "type": "hidden_field", "required": True}], "INVALID_CONFIGURATION",
            "questions[0].required")
    # Only a hidden_field: a required calculated question stays as it was allowed.
    ws.link(questions=[{"prompt": "N", "type": "number", "field_key": "n"},
                       {"prompt": "Double", "type": "calculated", "required": True,
                        "configuration": {"formula": "n * 2"}}])
    r = ws.call("POST", "links/", json={"name": "x", "questions": [{"prompt": "Q", "type": "telepathy"}]})
    assert "32 question types" in expect(r, 400, "INVALID_QUESTION_TYPE")["error"]["details"]["questions[0].type"]


@test
def summaries_of_the_new_types():
    ws = Workspace()
    link = ws.link(slug="sum", questions=[
        {"field_key": "csat", "type": "csat", "prompt": "a"},
        {"field_key": "rank", "type": "ranking", "prompt": "b", "configuration": {"options": ["speed", "price", "support"]}},
        {"field_key": "grid", "type": "matrix", "prompt": "c", "configuration": {"rows": ROWS, "columns": COLUMNS}},
        {"field_key": "level", "type": "slider", "prompt": "d"},
        {"field_key": "span", "type": "slider", "prompt": "e", "configuration": {"range": True}},
        {"field_key": "src", "type": "hidden_field", "prompt": "f"},
        {"field_key": "terms", "type": "consent", "prompt": "g", "configuration": {"text": "I agree."}},
        {"field_key": "nps", "type": "nps", "prompt": "h"},
        {"field_key": "scale", "type": "opinion_scale", "prompt": "i"},
        {"field_key": "plan", "type": "dropdown", "prompt": "j", "configuration": {"options": ["free", "pro"]}},
        {"field_key": "site", "type": "url", "prompt": "k"}])
    for row in ({"csat": 5, "rank": ["speed", "price", "support"], "grid": {"speed": "bad", "price": "ok"},
                 "level": 10, "span": [10, 50], "src": "pro", "terms": True, "nps": 10, "scale": 5, "plan": "pro",
                 "site": "https://example.com"},
                {"csat": 4, "rank": ["price", "speed", "support"], "grid": {"speed": "bad"}, "level": 20,
                 "span": [20, 80], "src": "pro", "nps": 9, "scale": 4, "plan": "pro"},
                {"csat": 2, "level": 60, "span": [30, 60], "src": "free", "nps": 3, "plan": "free"}):
        ws.complete("sum", row)
    j = expect(ws.call("GET", f"links/{link['uuid']}/summary/"), 200)
    stats = {q["field_key"]: q["stats"] for q in j["questions"]}
    answered = {q["field_key"]: q["answered"] for q in j["questions"]}
    assert stats["csat"]["csat"] == 2 / 3 and abs(stats["csat"]["average"] - 11 / 3) < 1e-9, stats["csat"]
    assert stats["csat"]["distribution"] == {"1": 0, "2": 1, "3": 0, "4": 1, "5": 1}, stats["csat"]
    assert stats["rank"] == {"average_rank": {"speed": 1.5, "price": 1.5, "support": 3},
                             "first_place": {"speed": 1, "price": 1, "support": 0}}, stats["rank"]
    assert stats["grid"] == {"counts": {"speed": {"bad": 2, "ok": 0, "good": 0},
                                        "price": {"bad": 0, "ok": 1, "good": 0}}}, stats["grid"]
    assert stats["level"] == {"min": 10, "max": 60, "mean": 30, "median": 20}, stats["level"]
    assert stats["span"] == {"low": {"min": 10, "max": 30, "mean": 20, "median": 20},
                             "high": {"min": 50, "max": 80, "mean": 190 / 3, "median": 60}}, stats["span"]
    assert stats["src"] == {"counts": {"pro": 2, "free": 1}}, stats["src"]
    assert stats["terms"] == {"accepted": 1} and answered["terms"] == 1
    assert abs(stats["nps"]["nps"] - 100 / 3) < 1e-9 and stats["nps"]["promoters"] == 2, stats["nps"]
    assert stats["scale"]["distribution"] == {"1": 0, "2": 0, "3": 0, "4": 1, "5": 1}, stats["scale"]
    assert stats["plan"] == {"counts": {"free": 1, "pro": 2}}, stats["plan"]
    assert stats["site"] == {} and answered["site"] == 1


@test
def search_reads_the_text_of_the_new_types():
    ws = Workspace()
    link = ws.link(slug="find", questions=[q for q in NEW_TYPES if q["field_key"] in ("contact", "addr", "src", "rank")])
    ws.complete("find", {"contact": {"email": "zelda@hyrule.example"}})
    ws.complete("find", {"addr": {"line1": "1 Main St", "city": "Kakariko", "country": "JP"}})
    ws.complete("find", {"src": "partner-portal"})
    for term in ("zelda@hyrule", "kakariko", "partner-portal"):
        j = expect(ws.call("GET", f"links/{link['uuid']}/responses/?search={urllib.parse.quote(term)}"), 200)
        assert j["count"] == 1, (term, j)


@test
def signatures_are_png_uploads_within_their_limit():
    ws = Workspace()
    ws.link(slug="sign", questions=[{"field_key": "sig", "type": "signature", "prompt": "Sign",
                                     "configuration": {"max_size_kb": 1}}])
    st = ws.start("sign")

    def upload(body, content_type="image/png"):
        return ws.intake("POST", f"/i/sign/responses/{st['uuid']}/files/sig/", token=st["token"], body=body,
                         headers={"Content-Type": content_type, "X-File-Name": "signature.png"})

    png = media_files.png()
    a = expect(upload(png), 200)
    assert a["value"]["content_type"] == "image/png" and a["value"]["size_bytes"] == len(png), a
    expect(upload(png + b"\x00" * 1024), 413, "PAYLOAD_TOO_LARGE")
    expect(upload(media_files.pdf(), "application/pdf"), 400, "INVALID_ANSWER")
    expect(upload(b"not a png at all", "image/png"), 400, "INVALID_ANSWER")
    rec = expect(ws.submit("sign", st), 200)
    assert by_key(rec)["sig"]["value"]["size_bytes"] == len(png)


@test
def groups_operators_and_dotted_fields_decide_visibility():
    ws = Workspace()
    ws.link(slug="logic", questions=[
        {"field_key": "n", "type": "number", "prompt": "n"},
        {"field_key": "contact", "type": "contact_info", "prompt": "c"},
        {"field_key": "tops", "type": "multiple_choice", "prompt": "t",
         "configuration": {"options": ["a", "b", "c"], "allow_multiple": True}},
        {"field_key": "src", "type": "hidden_field", "prompt": "s", "configuration": {"default_value": "direct"}},
        {"field_key": "g_group", "type": "text", "prompt": "g",
         "condition": {"all": [leaf("n", "greater_than_or_equal", 5),
                               {"any": [leaf("contact.email", "ends_with", "@example.com"),
                                        leaf("tops", "includes_all", ["a", "b"])]}]}},
        {"field_key": "g_hidden", "type": "text", "prompt": "h", "condition": leaf("src", "equals", "direct")},
        {"field_key": "g_none", "type": "text", "prompt": "x", "condition": leaf("tops", "excludes_all", ["c"])},
    ])

    def shown(answers):
        body = dict(answers, g_group="x", g_hidden="x", g_none="x")
        got = by_key(ws.complete("logic", body))
        return {k for k in ("g_group", "g_hidden", "g_none") if k in got}

    assert shown({"n": 5, "contact": {"email": "ada@EXAMPLE.com"}}) == {"g_group", "g_hidden"}
    assert shown({"n": 5, "tops": ["a", "b"], "src": "ad"}) == {"g_group", "g_none"}
    assert shown({"n": 4, "tops": ["a", "b", "c"]}) == {"g_hidden"}
    # A hidden_field left unanswered holds its default_value, and is stored with it.
    rec = ws.complete("logic", {})
    assert by_key(rec)["src"]["value"] == "direct"
    for condition, path in ((leaf("n", "between", 1), "questions[1].condition.operator"),
                            (leaf("n.low", "is_answered"), "questions[1].condition.field"),
                            (leaf("n", "greater_than", "5"), "questions[1].condition.value"),
                            (leaf("n", "is_answered", 1), "questions[1].condition.value"),
                            ({"all": [leaf("n", "equals", 1), leaf("later", "equals", 1)]},
                             "questions[1].condition.all[1].field")):
        refused(ws, [{"field_key": "n", "type": "number", "prompt": "n"},
                     {"field_key": "t", "type": "text", "prompt": "t", "condition": condition}],
                "INVALID_CONDITION", path)


@test
def recall_fills_prompts_and_is_checked():
    ws = Workspace()
    link = ws.link(slug="recall", settings={"description": "Hello from {{src}}"}, questions=[
        {"field_key": "src", "type": "hidden_field", "prompt": "Source"},
        {"field_key": "name", "type": "text", "prompt": "Name?"},
        {"field_key": "trip", "type": "date_range", "prompt": "Trip?"},
        {"field_key": "tops", "type": "multiple_choice", "prompt": "Tops?",
         "configuration": {"options": ["a", "b"], "allow_multiple": True}},
        {"field_key": "ok", "type": "yes_no", "prompt": "OK?"},
        {"field_key": "why", "type": "text", "prompt": "{{name}}: {{trip.start}} / {{tops}} / {{ok}} / {{src}}?"}])
    rec = ws.complete("recall", {"name": "Ada", "trip": {"start": "2024-07-01", "end": "2024-07-02"},
                                 "tops": ["a", "b"], "ok": False, "src": "mail", "why": "because"})
    assert by_key(rec)["why"]["question_text"] == "Ada: 2024-07-01 / a, b / no / mail?", by_key(rec)["why"]
    rec = ws.complete("recall", {"why": "because"})
    assert by_key(rec)["why"]["question_text"] == ":  /  /  / ?", by_key(rec)["why"]
    st = ws.start("recall")
    expect(ws.answer("recall", st, "name", "Bo"), 200)
    a = expect(ws.answer("recall", st, "why", "so"), 200)
    assert a["question_text"] == "Bo:  /  /  / ?", a
    assert link["questions"][5]["prompt"].startswith("{{name}}")
    questions = [{"field_key": "a", "type": "text", "prompt": "A"},
                 {"field_key": "trip", "type": "date_range", "prompt": "T"}]
    refused(ws, questions + [{"prompt": "{{later}}", "type": "text"}, {"field_key": "later", "type": "text",
                                                                         "prompt": "L"}],
            "VALIDATION_ERROR", "questions[2].prompt")
    refused(ws, questions + [{"prompt": "{{trip}}", "type": "text"}], "VALIDATION_ERROR", "questions[2].prompt")
    refused(ws, questions + [{"prompt": "x", "type": "help_block", "configuration": {"content": "{{trip.middle}}"}}],
            "VALIDATION_ERROR", "questions[2].configuration.content")
    refused(ws, questions, "VALIDATION_ERROR", "settings.description", settings={"description": "Hi {{a}}"})
