"""/v1/links/: create, detail, list, PATCH, delete; every validation and error code; quota
races; and what the database holds after each rejected request."""
import concurrent.futures
import json

from harness import Workspace, expect, request, sql, test

CARDS = [{"id": "c1", "label": "Cat", "media_url": "https://example.com/cat.png", "media_type": "image"},
         {"id": "c2", "label": "Dog", "media_url": "https://example.com/dog.mp4", "media_type": "video"}]
ALL_TYPES = [
    {"prompt": "Tell us", "type": "voice", "field_key": "voice_q",
     "configuration": {"max_duration": 120, "enable_ai_evaluation": True}},
    {"prompt": "Voice or text", "type": "voice_text_fallback", "field_key": "vtf_q",
     "configuration": {"max_duration": 60, "max_characters": 500}},
    {"prompt": "Comments", "type": "text", "field_key": "text_q"},
    {"prompt": "Colour", "type": "multiple_choice", "field_key": "mc_q",
     "configuration": {"options": ["red", "green"], "allow_multiple": True}},
    {"prompt": "How many", "type": "number", "field_key": "num_q",
     "configuration": {"min": 0, "max": 10, "step": 0.5}},
    {"prompt": "Rate", "type": "rating", "field_key": "rating_q",
     "configuration": {"scale_type": "nps", "max_value": 10}},
    {"prompt": "Card", "type": "image_choice", "field_key": "card_q", "configuration": {"cards": CARDS}},
    {"prompt": "Email", "type": "email", "field_key": "email_q"},
    {"prompt": "When", "type": "date", "field_key": "date_q"},
    {"prompt": "Recommend", "type": "yes_no", "field_key": "yn_q"},
    {"prompt": "File", "type": "file_upload", "field_key": "file_q",
     "configuration": {"allowed_types": ["image/*", "application/pdf"], "max_size_mb": 5}},
    {"prompt": "Total", "type": "calculated", "field_key": "calc_q",
     "configuration": {"formula": "(num_q + rating_q) * 2"}},
    {"prompt": "About", "type": "help_block", "field_key": "help_q",
     "configuration": {"content": "Thanks", "media_url": "https://example.com/a.png"}},
]


def rows(ws, what="links"):
    """Links of the workspace, or ("questions") the questions stored in them."""
    if what == "links":
        query = f"SELECT count(*) FROM links.links WHERE workspace_uuid = '{ws.uuid}'"
    else:
        query = ("SELECT coalesce(sum(json_array_length(questions::json)), 0) FROM links.links "
                 f"WHERE workspace_uuid = '{ws.uuid}'")
    return int(sql(query)[0][0])


def rejected(ws, body, status, code, path=None, method="POST", target="links/"):
    before = (rows(ws), rows(ws, "questions"))
    r = ws.call(method, target, json=body)
    j = expect(r, status, code)
    if path:
        assert path in (j["error"].get("details") or {}), f"details lack {path}: {r!r}"
    assert (rows(ws), rows(ws, "questions")) == before, f"rows changed after rejected {body!r}"[:300]
    return j


@test
def all_types_round_trip_exactly():
    ws = Workspace()
    made = ws.link(name="Everything", questions=ALL_TYPES)
    assert [q["field_key"] for q in made["questions"]] == [q["field_key"] for q in ALL_TYPES]
    for sent, got in zip(ALL_TYPES, made["questions"]):
        assert got["response_type"] == sent["type"]
        assert got["configuration"] == sent.get("configuration", {}), (sent, got)
    assert expect(ws.call("GET", f"links/{made['uuid']}/"), 200) == made


@test
def a_hundred_questions_round_trip_and_a_hundred_and_one_are_refused():
    ws = Workspace()
    questions = [{"prompt": f"Question number {i}", "type": "text", "order": 100 - i} for i in range(100)]
    made = ws.link(questions=questions)
    assert len(made["questions"]) == 100
    assert [q["prompt"] for q in made["questions"]] == [f"Question number {i}" for i in range(99, -1, -1)]
    assert expect(ws.call("GET", f"links/{made['uuid']}/"), 200) == made
    assert rows(ws, "questions") == 100
    rejected(ws, {"name": "too many", "questions": questions + [{"prompt": "one more"}]}, 400,
             "VALIDATION_ERROR", "questions")


@test
def defaults_and_settings():
    ws = Workspace()
    made = ws.link(name="Defaults", questions=[{"prompt": "Overall satisfaction"}])
    q = made["questions"][0]
    assert (q["response_type"], q["field_key"], q["order"], q["required"], q["configuration"],
            q["condition"], q["enable_dynamic_probing"], q["fallback_to_text"],
            q["evaluator_config"]) == ("voice", "overall_satisfaction", 0, False, {}, {}, False, True, {})
    assert made["settings"] == {"description": None, "thankYouMessage": "Thanks for your response!",
                                "redirectUrl": None, "tts_enabled": False, "live_transcription": False}
    assert made["status"] == "active" and made["response_count"] == 0
    assert made["public_url"] == f"https://{ws.info['host']}/i/defaults"
    paused = ws.link(status="paused", settings={"tts_enabled": True, "redirectUrl": "https://example.com/x"})
    assert paused["status"] == "paused" and paused["settings"]["tts_enabled"] is True


@test
def validation_errors_name_the_field_and_store_nothing():
    ws = Workspace()
    good = {"prompt": "Fine", "type": "text", "field_key": "fine"}
    cases = [
        ({"slug": "x"}, "NAME_REQUIRED", None),
        ({"name": "\t "}, "NAME_REQUIRED", None),
        ({"name": "x" * 201}, "VALIDATION_ERROR", "name"),
        ({"name": "x", "slug": "Bad Slug"}, "INVALID_SLUG", "slug"),
        ({"name": "x", "slug": "a" * 65}, "INVALID_SLUG", "slug"),
        ({"name": "x", "status": "archived"}, "VALIDATION_ERROR", "status"),
        ({"name": "x", "questions": [good, {"prompt": "?", "type": "telepathy"}]},
         "INVALID_QUESTION_TYPE", "questions[1].type"),
        ({"name": "x", "questions": [good, {"prompt": "?", "type": "multiple_choice"}]},
         "INVALID_CONFIGURATION", "questions[1].configuration.options"),
        ({"name": "x", "questions": [{"prompt": "?", "type": "rating", "configuration": {"max_value": 99}}]},
         "INVALID_CONFIGURATION", "questions[0].configuration.max_value"),
        ({"name": "x", "questions": [{"prompt": "?", "type": "text", "configuration": {"options": []}}]},
         "INVALID_CONFIGURATION", "questions[0].configuration.options"),
        ({"name": "x", "questions": [good, {"prompt": "?", "condition": {
            "field": "later", "operator": "equals", "value": 1}}]},
         "INVALID_CONDITION", "questions[1].condition.field"),
        ({"name": "x", "questions": [{"prompt": "a", "field_key": "a"}, {"prompt": "b", "condition": {
            "field": "a", "operator": "between", "value": 1}}]},
         "INVALID_CONDITION", "questions[1].condition.operator"),
        ({"name": "x", "questions": [{"prompt": "a", "condition": {
            "field": "a", "operator": "equals", "value": 1}, "field_key": "a"}]},
         "INVALID_CONDITION", "questions[0].condition.field"),
        ({"name": "x", "questions": [good, dict(good, prompt="again")]}, "VALIDATION_ERROR",
         "questions[1].field_key"),
        ({"name": "x", "questions": [{"prompt": "a", "field_key": "Not Snake"}]}, "VALIDATION_ERROR",
         "questions[0].field_key"),
        ({"name": "x", "questions": [{"prompt": ""}]}, "VALIDATION_ERROR", "questions[0].prompt"),
        ({"name": "x", "questions": [{"prompt": "p" * 2001}]}, "VALIDATION_ERROR", "questions[0].prompt"),
        ({"name": "x", "questions": [{"prompt": "a", "order": -1}]}, "VALIDATION_ERROR", "questions[0].order"),
        ({"name": "x", "questions": [{"prompt": "a", "evaluator_config": {"clarity_threshold": 3}}]},
         "VALIDATION_ERROR", "questions[0].evaluator_config.clarity_threshold"),
        ({"name": "x", "questions": [{"prompt": "a", "evaluator_config": {"model": "x"}}]},
         "VALIDATION_ERROR", "questions[0].evaluator_config.model"),
        ({"name": "x", "questions": [{"prompt": "a", "colour": "red"}]}, "VALIDATION_ERROR",
         "questions[0].colour"),
        ({"name": "x", "questions": [{"prompt": "a", "uuid": "123e4567-e89b-42d3-a456-426614174000"}]},
         "VALIDATION_ERROR", "questions[0].uuid"),
        ({"name": "x", "questions": ["a question"]}, "VALIDATION_ERROR", "questions[0]"),
        ({"name": "x", "settings": {"redirectUrl": "not a url"}}, "VALIDATION_ERROR",
         "settings.redirectUrl"),
        ({"name": "x", "settings": {"description": "d" * 2001}}, "VALIDATION_ERROR",
         "settings.description"),
        ({"name": "x", "settings": {"tts_enabled": "yes"}}, "VALIDATION_ERROR", "settings.tts_enabled"),
        ({"name": "x", "on_finished": {"webhook_url": "http://example.com/hook"}},
         "INVALID_WEBHOOK_URL", "on_finished.webhook_url"),
        # Private targets: test_webhooks, on links and webhooks services that refuse them (the
        # test stack allows them, for its receivers).
        ({"name": "x", "on_finished": {"webhook_secret": "s"}}, "VALIDATION_ERROR",
         "on_finished.webhook_secret"),
        ({"name": "x", "on_finished": {"webhook_url": "https://example.com/h", "extra": 1}},
         "VALIDATION_ERROR", "on_finished.extra"),
    ]
    for body, code, path in cases:
        rejected(ws, body, 400, code, path)


@test
def on_finished_is_stored_with_a_sealed_secret():
    ws = Workspace()
    made = ws.link(on_finished={"webhook_url": "https://hooks.example.com/fb",
                                "webhook_secret": "whsec_plain_text_secret"})
    assert "on_finished" not in made
    stored = sql(f"SELECT on_finished_webhook_url, on_finished_webhook_secret_sealed "
                 f"FROM links.links WHERE uuid = '{made['uuid']}'")
    assert stored[0][0] == "https://hooks.example.com/fb"
    assert stored[0][1].startswith("v1:") and "whsec_plain_text_secret" not in stored[0][1]


@test
def slugs_generated_unique_and_freed_on_delete():
    ws = Workspace()
    assert [ws.link(name="Customer NPS Survey")["slug"] for _ in range(3)] == [
        "customer-nps-survey", "customer-nps-survey-2", "customer-nps-survey-3"]
    assert ws.link(name="日本語")["slug"] == "link"
    rejected(ws, {"name": "x", "slug": "customer-nps-survey"}, 400, "SLUG_CONFLICT", "slug")
    first = expect(ws.call("GET", "links/?search=customer-nps-survey"), 200)["results"][-1]
    expect(ws.call("DELETE", f"links/{first['uuid']}/"), 200)
    assert ws.link(name="x", slug="customer-nps-survey")["slug"] == "customer-nps-survey"


@test
def list_filters_and_pages():
    ws = Workspace()
    a = ws.link(name="Alpha Survey", slug="alpha")
    b = ws.link(name="Beta", slug="beta-survey", status="paused")
    c = ws.link(name="Gamma", slug="gamma")
    j = expect(ws.call("GET", "links/"), 200)
    assert [x["uuid"] for x in j["results"]] == [c["uuid"], b["uuid"], a["uuid"]]
    assert [x["uuid"] for x in expect(ws.call("GET", "links/?status=paused"), 200)["results"]] == [b["uuid"]]
    assert [x["uuid"] for x in expect(ws.call("GET", "links/?search=SURVEY"), 200)["results"]] == [b["uuid"], a["uuid"]]
    assert expect(ws.call("GET", "links/?search=%25"), 200)["count"] == 0
    page = expect(ws.call("GET", "links/?page=2&page_size=2&status=&search="), 200)
    assert page["count"] == 3 and [x["uuid"] for x in page["results"]] == [a["uuid"]]
    assert page["next"] is None and "page=1" in page["previous"]
    expect(ws.call("GET", "links/?status=deleted"), 400, "VALIDATION_ERROR")
    expect(ws.call("GET", "links/?page=3&page_size=2"), 404, "INVALID_PAGE")
    expect(ws.call("GET", "links/?page_size=-3"), 400, "INVALID_PAGINATION")


@test
def patch_fields_settings_and_status():
    ws = Workspace()
    made = ws.link(name="Before", slug="before", settings={"description": "d", "tts_enabled": True})
    j = expect(ws.call("PATCH", f"links/{made['uuid']}/", json={
        "name": "After", "slug": "after", "status": "paused",
        "settings": {"thankYouMessage": "Ta!", "description": None}}), 200)
    assert (j["name"], j["slug"], j["status"]) == ("After", "after", "paused")
    assert j["settings"] == {"description": None, "thankYouMessage": "Ta!", "redirectUrl": None,
                             "tts_enabled": True, "live_transcription": False}, j["settings"]
    assert j["public_url"].endswith("/i/after")
    assert j["date_created"] == made["date_created"] and j["date_updated"] > made["date_updated"]
    assert expect(ws.call("GET", f"links/{made['uuid']}/"), 200) == j
    j2 = expect(ws.call("PATCH", f"links/{made['uuid']}/", json={"status": "active"}), 200)
    assert j2["status"] == "active" and j2["name"] == "After"
    expect(ws.call("PATCH", f"links/{made['uuid']}/", json={}), 200)


@test
def patch_replaces_questions_keeping_known_uuids():
    ws = Workspace()
    made = ws.link(questions=[{"prompt": "Keep me", "field_key": "keep", "type": "text"},
                              {"prompt": "Drop me", "field_key": "drop"}])
    keep = made["questions"][0]
    j = expect(ws.call("PATCH", f"links/{made['uuid']}/", json={"questions": [
        {"prompt": "New first", "field_key": "new", "type": "number"},
        {"uuid": keep["uuid"], "prompt": "Kept, reworded", "field_key": "keep", "type": "text",
         "condition": {"field": "new", "operator": "less_than", "value": 3}}]}), 200)
    assert [q["field_key"] for q in j["questions"]] == ["new", "keep"]
    kept = j["questions"][1]
    assert kept["uuid"] == keep["uuid"] and kept["prompt"] == "Kept, reworded"
    assert kept["date_created"] == keep["date_created"]
    assert j["questions"][0]["uuid"] not in (q["uuid"] for q in made["questions"])
    assert rows(ws, "questions") == 2
    cleared = expect(ws.call("PATCH", f"links/{made['uuid']}/", json={"questions": []}), 200)
    assert cleared["questions"] == [] and rows(ws, "questions") == 0


@test
def patch_errors_change_nothing():
    ws = Workspace()
    other = ws.link(slug="taken")
    made = ws.link(name="Stable", slug="stable", questions=[{"prompt": "Q", "field_key": "q"}])
    target = f"links/{made['uuid']}/"
    for body, code in (({"slug": "taken"}, "SLUG_CONFLICT"), ({"slug": "Not Valid"}, "INVALID_SLUG"),
                       ({"name": None}, "NAME_REQUIRED"), ({"name": " "}, "NAME_REQUIRED"),
                       ({"status": "deleted"}, "VALIDATION_ERROR"), ({"status": None}, "VALIDATION_ERROR"),
                       ({"name": "Changed", "questions": [{"prompt": "x", "type": "nope"}]},
                        "INVALID_QUESTION_TYPE"),
                       ({"name": "Changed", "questions": [{"prompt": "x", "type": "rating",
                                                           "configuration": {"scale_type": "hearts"}}]},
                        "INVALID_CONFIGURATION"),
                       ({"questions": [{"uuid": other["uuid"], "prompt": "x"}]}, "VALIDATION_ERROR"),
                       ({"on_finished": {"webhook_url": "https://example.com"}}, "VALIDATION_ERROR"),
                       ({"settings": {"theme": "dark"}}, "VALIDATION_ERROR")):
        rejected(ws, body, 400, code, method="PATCH", target=target)
    assert expect(ws.call("GET", target), 200) == made
    expect(Workspace().call("PATCH", target, json={"name": "Theirs"}), 404, None)
    expect(ws.call("PATCH", "links/123e4567-e89b-42d3-a456-426614174000/", json={"name": "x"}), 404, None)


@test
def patch_to_a_slug_freed_by_delete():
    ws = Workspace()
    gone = ws.link(slug="wanted")
    made = ws.link(slug="current")
    expect(ws.call("DELETE", f"links/{gone['uuid']}/"), 200)
    assert expect(ws.call("PATCH", f"links/{made['uuid']}/", json={"slug": "wanted"}), 200)["slug"] == "wanted"


@test
def delete_removes_link_and_questions():
    ws = Workspace()
    made = ws.link(questions=ALL_TYPES)
    assert rows(ws, "questions") == len(ALL_TYPES)
    j = expect(ws.call("DELETE", f"links/{made['uuid']}/"), 200)
    assert isinstance(j["message"], str) and j["message"]
    assert rows(ws) == 0 and rows(ws, "questions") == 0
    assert sql(f"SELECT count(*) FROM links.links WHERE uuid = '{made['uuid']}'") == [["0"]]
    expect(ws.call("GET", f"links/{made['uuid']}/"), 404, None)
    expect(ws.call("DELETE", f"links/{made['uuid']}/"), 404, None)
    expect(ws.call("PATCH", f"links/{made['uuid']}/", json={"name": "x"}), 404, None)


@test
def quota_counts_live_links_and_the_race_for_the_last_slot_has_one_winner():
    ws = Workspace(link_quota=3)
    first = ws.link()
    ws.link()
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda i: ws.call("POST", "links/", json={"name": f"race {i}"}), range(8)))
    assert sorted(r.status for r in results) == [201] + [403] * 7, [r.status for r in results]
    for r in results:
        if r.status == 403:
            expect(r, 403, "LINK_LIMIT_REACHED")
    assert rows(ws) == 3
    expect(ws.call("DELETE", f"links/{first['uuid']}/"), 200)
    ws.link()
    rejected(ws, {"name": "over"}, 403, "LINK_LIMIT_REACHED")


@test
def body_limit_applies_to_links():
    ws = Workspace()
    prefix, suffix = b'{"name": "big", "settings": {"description": "', b'"}}'
    body = prefix + b"x" * (1024 * 1024 + 1 - len(prefix) - len(suffix)) + suffix
    assert len(body) == 1024 * 1024 + 1
    r = ws.call("POST", "links/", body=body, headers={"Content-Type": "application/json"}, timeout=30)
    expect(r, 413, "PAYLOAD_TOO_LARGE")
    assert rows(ws) == 0


@test
def other_workspaces_links_are_404():
    a, b = Workspace(), Workspace()
    link = a.link()
    for method in ("GET", "DELETE", "PATCH"):
        expect(b.call(method, f"links/{link['uuid']}/", json={"name": "x"} if method == "PATCH" else None),
               404, None)
    assert expect(b.call("GET", "links/"), 200)["count"] == 0
    assert expect(a.call("GET", f"links/{link['uuid']}/"), 200)["name"] == link["name"]
