"""Exports: GET /v1/links/{uuid}/responses/export/ as CSV and NDJSON (docs/api.md "Exports"):
sent in chunks with the file's headers, cell by cell what the list's records hold, the list's
filters and order, the formula guard, errors before any byte, and a client that leaves ending
the service's cursor."""
import csv
import datetime
import io
import json
import re
import socket
import time
import urllib.parse
import xml.etree.ElementTree as ET
import zipfile

import harness
from harness import Workspace, expect, request, sql, test, wait_until

BOM = b"\xef\xbb\xbf"
FIXED = ["response_uuid", "status", "respondent_email", "started_at", "submitted_at"]
INSIGHTS = ["sentiment", "sentiment_score", "summary", "key_topics"]
QUESTIONS = [
    {"prompt": "Comment?", "type": "text", "field_key": "comment"},
    {"prompt": "Score?", "type": "number", "field_key": "score", "configuration": {"min": -10, "max": 10}},
    {"prompt": "Plans?", "type": "multiple_choice", "field_key": "plans",
     "configuration": {"options": ["basic", "pro", "team"], "allow_multiple": True}},
    {"prompt": "Again?", "type": "yes_no", "field_key": "again"},
    {"prompt": "Who?", "type": "contact_info", "field_key": "who",
     "configuration": {"fields": {"company": {"show": False}, "phone": {"show": False}}}},
    {"prompt": "Grid?", "type": "matrix", "field_key": "grid",
     "configuration": {"rows": [{"id": "speed", "label": "Speed"}, {"id": "price", "label": "Price"}],
                       "columns": [{"id": "bad", "label": "Bad"}, {"id": "good", "label": "Good"}]}},
    {"prompt": "Note", "type": "help_block", "field_key": "note", "configuration": {"content": "Thanks"}},
]
HEADER = FIXED + ["comment"] + [f"comment.{s}" for s in INSIGHTS] + [
    "score", "plans", "again", "who.first_name", "who.last_name", "who.email", "grid.speed", "grid.price"]


def export(ws, link, key=None, **query):
    path = f"links/{link['uuid']}/responses/export/"
    if query:
        path += "?" + urllib.parse.urlencode(query)
    return ws.call("GET", path, headers={"Accept": "*/*"}, timeout=60, **({"key": key} if key else {}))


def rows_of(r):
    assert r.status == 200, r
    assert r.header("Content-Type") == "text/csv; charset=utf-8", r.header("Content-Type")
    assert r.body.startswith(BOM), r.body[:10]
    rows = list(csv.reader(io.StringIO(r.body[len(BOM):].decode(), newline="")))
    return rows[0], [dict(zip(rows[0], row)) for row in rows[1:]]


def records(ws, link, **query):
    j = expect(ws.call("GET", f"links/{link['uuid']}/responses/?" +
                       urllib.parse.urlencode(dict(query, page_size=100))), 200)
    return j["results"]


def made(slug):
    ws = Workspace()
    link = ws.link(slug=slug, questions=QUESTIONS)
    return ws, link


@test
def csv_cells_match_the_records():
    ws, link = made("export-csv")
    ws.complete("export-csv", {"comment": "=SUM(A1:A9), then \"quoted\"\nand a second line", "score": -3,
                               "plans": ["basic", "team"], "again": False,
                               "who": {"first_name": "Ann", "last_name": "Lee", "email": "ann@example.com"},
                               "grid": {"speed": "good", "price": "bad"}}, email="ann@example.com")
    ws.complete("export-csv", {"score": 7, "again": True})
    started = ws.start("export-csv")  # in progress: not in the default export
    r = export(ws, link)
    assert r.header("Transfer-Encoding") == "chunked", r.headers
    assert r.header("Content-Length") is None, r.headers
    day = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    assert r.header("Content-Disposition") == f'attachment; filename="export-csv-responses-{day}.csv"'
    header, rows = rows_of(r)
    assert header == HEADER, header
    listed = records(ws, link)
    assert [row["response_uuid"] for row in rows] == [x["uuid"] for x in listed]
    for row, record in zip(rows, listed):
        answers = {a["field_key"]: a for a in record["answers"]}
        assert row["status"] == record["status"]
        assert row["respondent_email"] == (record["respondent_email"] or "")
        assert row["started_at"] == record["started_at"] and row["submitted_at"] == record["submitted_at"]
        value = lambda key: answers[key]["value"] if key in answers else None
        comment = value("comment")
        assert row["comment"] == ("" if comment is None else "'" + comment), (row["comment"], comment)
        assert row["score"] == str(value("score")), row
        assert row["again"] == {True: "true", False: "false"}[value("again")]
        assert row["plans"] == "; ".join(value("plans") or [])
        who = value("who") or {}
        assert [row["who.first_name"], row["who.last_name"], row["who.email"]] == \
            [who.get("first_name", ""), who.get("last_name", ""), who.get("email", "")]
        grid = value("grid") or {}
        assert [row["grid.speed"], row["grid.price"]] == [grid.get("speed", ""), grid.get("price", "")]
        insights = answers["comment"]["ai_insights"] if "comment" in answers else {}
        assert row["comment.sentiment"] == insights.get("sentiment", "")
        assert row["comment.key_topics"] == "; ".join(insights.get("key_topics", []))
        if insights:
            assert float(row["comment.sentiment_score"]) == insights["sentiment_score"]
    assert started["uuid"] not in [row["response_uuid"] for row in rows]
    # The list's filters and order.
    _, every = rows_of(export(ws, link, status="all", ordering="submitted_at"))
    assert [row["response_uuid"] for row in every] == \
        [x["uuid"] for x in records(ws, link, status="all", ordering="submitted_at")]
    _, found = rows_of(export(ws, link, search="second line"))
    assert len(found) == 1 and found[0]["score"] == "-3", found


SML = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


def xlsx_rows(body):
    """The first worksheet's rows as lists of (text, type); no cell holds a formula."""
    z = zipfile.ZipFile(io.BytesIO(body))
    shared = []
    if "xl/sharedStrings.xml" in z.namelist():
        shared = ["".join(t.text or "" for t in si.iter(f"{SML}t"))
                  for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall(f"{SML}si")]
    rows = []
    for row in ET.fromstring(z.read("xl/worksheets/sheet1.xml")).iter(f"{SML}row"):
        cells = {}
        for c in row.findall(f"{SML}c"):
            assert c.find(f"{SML}f") is None, "a formula"
            col = 0
            for ch in re.match(r"[A-Z]+", c.get("r")).group(0):
                col = col * 26 + ord(ch) - 64
            kind, v = c.get("t"), c.find(f"{SML}v")
            if kind == "s":
                text = shared[int(v.text)]
            elif kind == "inlineStr":
                text = "".join(t.text or "" for t in c.iter(f"{SML}t"))
            else:
                text = v.text if v is not None else ""
            cells[col - 1] = (text, kind)
        rows.append([cells.get(i, ("", None)) for i in range(max(cells) + 1)] if cells else [])
    return rows


@test
def xlsx_cells_match_the_csv():
    ws, link = made("export-xlsx")
    ws.complete("export-xlsx", {"comment": "=1+1 is text here", "score": -3, "plans": ["pro"], "again": True,
                                "grid": {"speed": "bad"}}, email="ann@example.com")
    ws.complete("export-xlsx", {"score": 7})
    r = export(ws, link, format="xlsx")
    assert r.status == 200, r
    assert r.header("Content-Type") == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    day = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    assert r.header("Content-Disposition") == f'attachment; filename="export-xlsx-responses-{day}.xlsx"'
    sheet = xlsx_rows(r.body)
    header, rows = rows_of(export(ws, link))
    assert [text for text, _ in sheet[0]] == header
    assert len(sheet) == len(rows) + 1
    for cells, row in zip(sheet[1:], rows):
        cells += [("", None)] * (len(header) - len(cells))
        for (text, kind), name in zip(cells, header):
            want = row[name]
            if name in ("started_at", "submitted_at"):
                if want:  # a date cell: days since 1899-12-30, to the millisecond
                    at = datetime.datetime.strptime(want, "%Y-%m-%dT%H:%M:%S.%fZ")
                    days = (at - datetime.datetime(1899, 12, 30)).total_seconds() / 86400
                    assert kind is None and abs(float(text) - days) < 0.001 / 86400, (name, text, want)
            elif name in ("score", "comment.sentiment_score"):
                assert (kind, float(text) if text else None) == (None, float(want) if want else None), name
            elif name == "again" and want:
                assert text == want and kind in ("s", "inlineStr", "str"), (kind, text)
            else:
                # Text as text: CSV's formula guard is CSV's alone.
                guarded = want[:1] == "'" and want[1:2] in ("=", "+", "-", "@", "\t", "\r")
                assert text == (want[1:] if guarded else want), (name, text, want)
                assert kind in ("s", "inlineStr", "str", None) and (kind is not None or not text), (name, kind)


@test
def ndjson_lines_are_the_records():
    ws, link = made("export-lines")
    for i in range(3):
        ws.complete("export-lines", {"comment": f"answer {i}", "score": i}, email=f"p{i}@example.com")
    r = export(ws, link, format="ndjson", ordering="respondent_email")
    assert r.status == 200, r
    assert r.header("Content-Type") == "application/x-ndjson"
    assert r.body.endswith(b"\n")
    lines = [json.loads(line) for line in r.body.decode().split("\n")[:-1]]
    assert lines == records(ws, link, ordering="respondent_email")


@test
def http_1_0_clients_get_the_file_until_the_connection_closes():
    ws, link = made("export-old")
    ws.complete("export-old", {"comment": "fine", "score": 2})
    host, port = harness._base.netloc.split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall((f"GET {harness._base.path}links/{link['uuid']}/responses/export/?format=ndjson HTTP/1.0\r\n"
                   f"Host: {host}\r\nAuthorization: Bearer {ws.key}\r\n\r\n").encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.0 200"), head
    assert b"transfer-encoding" not in head.lower() and b"content-length" not in head.lower(), head
    assert [json.loads(line) for line in body.decode().split("\n")[:-1]] == records(ws, link)


@test
def head_answers_the_headers_without_making_the_file():
    ws, link = made("export-head")
    ws.complete("export-head", {"score": 1})
    before = int(sql("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'DECLARE export_rows%'")[0][0])
    r = ws.call("HEAD", f"links/{link['uuid']}/responses/export/?format=xlsx", headers={"Accept": "*/*"})
    assert r.status == 200 and r.body == b"", r
    assert r.header("Content-Type") == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert r.header("Content-Disposition", ).startswith('attachment; filename="export-head-responses-')
    assert int(sql("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'DECLARE export_rows%'")[0][0]) == before
    expect(ws.call("HEAD", f"links/{link['uuid']}/responses/export/?format=pdf", headers={"Accept": "*/*"}), 400)


@test
def export_errors_come_before_any_byte():
    ws, link = made("export-errors")
    ws.complete("export-errors", {"score": 1})
    for fmt in ("xml", "pdf", "", "XLSX"):
        expect(export(ws, link, format=fmt), 400, "VALIDATION_ERROR")
    expect(export(ws, link, ordering="price"), 400, "INVALID_ORDERING")
    expect(export(ws, link, status="gone"), 400, "VALIDATION_ERROR")
    expect(export(ws, {"uuid": "00000000-0000-4000-8000-000000000000"}), 404)
    other = Workspace()
    expect(export(other, link), 404)
    reader = ws.token(scopes=["links:read"])
    expect(export(ws, link, key=reader["key"]), 403)


def cursors(condition):
    """Sessions whose last statement was an export's (DECLARE or FETCH of export_rows)."""
    return int(sql("SELECT count(*) FROM pg_stat_activity WHERE (query LIKE 'DECLARE export_rows%' OR "
                   f"query LIKE 'FETCH FORWARD % FROM export_rows') {condition}")[0][0])


@test
def a_client_that_leaves_ends_the_cursor():
    ws, link = made("export-leave")
    long_text = "x" * 4000
    # About 12 MB of CSV: more than the sockets and gRPC's windows hold.
    for _ in range(3000):
        ws.complete("export-leave", {"comment": long_text, "score": 1})
    host, port = harness._base.netloc.split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall((f"GET {harness._base.path}links/{link['uuid']}/responses/export/ HTTP/1.1\r\n"
                   f"Host: {host}\r\nAuthorization: Bearer {ws.key}\r\n\r\n").encode())
        first = s.recv(65536)
        assert first.startswith(b"HTTP/1.1 200"), first[:200]
        # Held open: the client reads no more, so the service waits to send its next chunk.
        wait_until(lambda: cursors("AND state = 'idle in transaction'") > 0, timeout=10,
                   what="the export's cursor, held open")
    # Gone within seconds once its client left, however much of the file was still to come.
    wait_until(lambda: cursors("AND state <> 'idle'") == 0, timeout=10, what="the export's cursor to end")
    started = time.monotonic()
    whole = export(ws, link)
    assert whole.status == 200 and whole.body.count(b"\r\n") == 3001, whole.body.count(b"\r\n")
    assert time.monotonic() - started < 30


def expected_cells(link, record):
    """The CSV cells of `record` by column, from the contract's rules (docs/api.md "Exports"),
    written here apart from the service's code: per question in display order its value (one
    column per part), its insights when evaluated, its recording when voice."""
    formulas = ("=", "+", "-", "@", "\t", "\r")
    text = lambda v: "'" + v if isinstance(v, str) and v.startswith(formulas) else v

    def plain(v, free=True):
        if v is None:
            return ""
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return v
        if isinstance(v, list):
            joined = "; ".join(str(x) for x in v)
            return text(joined) if free else joined
        return text(v) if free else v

    cells = {"response_uuid": record["uuid"], "status": record["status"],
             "respondent_email": text(record["respondent_email"] or ""),
             "started_at": record["started_at"], "submitted_at": record["submitted_at"] or ""}
    answers = {a["question_uuid"]: a for a in record["answers"]}
    normalised = {"phone_number", "date", "time", "datetime"}
    for q in link["questions"]:
        kind, key, conf = q["response_type"], q["field_key"], q.get("configuration") or {}
        if kind == "help_block":
            continue
        a = answers.get(q["uuid"], {})
        value = a.get("value")
        if kind in ("contact_info", "address"):
            parts = [p for p in (["first_name", "last_name", "email", "phone", "company"] if kind == "contact_info"
                                 else ["line1", "line2", "city", "region", "postal_code", "country"])
                     if (conf.get("fields", {}).get(p) or {}).get("show", True)]
            for p in parts:
                cells[f"{key}.{p}"] = plain((value or {}).get(p), free=p not in ("phone", "country"))
        elif kind == "matrix":
            for row in conf["rows"]:
                cells[f"{key}.{row['id']}"] = plain((value or {}).get(row["id"]))
        elif kind == "date_range":
            cells[f"{key}.start"] = (value or {}).get("start", "")
            cells[f"{key}.end"] = (value or {}).get("end", "")
        elif kind == "slider" and conf.get("range"):
            cells[f"{key}.low"] = value[0] if value else ""
            cells[f"{key}.high"] = value[1] if value else ""
        elif kind in ("file_upload", "signature"):
            cells[key] = (value or {}).get("url", "")
        else:
            cells[key] = plain(value, free=kind not in normalised)
        if kind in ("text", "long_text", "voice_text_fallback") or \
                (kind == "voice" and conf.get("enable_ai_evaluation", True)):
            insights = a.get("ai_insights") or {}
            cells[f"{key}.sentiment"] = plain(insights.get("sentiment"))
            cells[f"{key}.sentiment_score"] = plain(insights.get("sentiment_score"))
            cells[f"{key}.summary"] = plain(insights.get("summary"))
            cells[f"{key}.key_topics"] = plain(insights.get("key_topics"))
        if kind in ("voice", "voice_text_fallback"):
            cells[f"{key}.transcription"] = plain(a.get("transcription"))
            cells[f"{key}.duration"] = plain(a.get("duration"))
            cells[f"{key}.audio_url"] = a.get("audio_url") or ""
    return cells


@test
def every_type_cell_by_cell():
    ws = Workspace()
    with open(f"{harness.ROOT}/tests/bench/link_32_types.json") as f:
        body = json.load(f)
    with open(f"{harness.ROOT}/tests/bench/answers_32_types.json") as f:
        answers = json.load(f)
    body.update(slug="export-types")
    link = expect(ws.call("POST", "links/", json=body), 201)
    for change in ({}, {"story": "=cmd|' /C calc'!A0", "n": 2, "yn": False, "color": "red"}, {"nps": 0}):
        ws.complete("export-types", {**answers["answers"], **change}, email="-minus@example.com")
    header, rows = rows_of(export(ws, link, ordering="submitted_at"))
    listed = records(ws, link, ordering="submitted_at")
    assert len(rows) == len(listed) == 3
    for row, record in zip(rows, listed):
        want = expected_cells(link, record)
        assert header == list(want), (header, list(want))
        for name, cell in row.items():
            expected = want[name]
            if isinstance(expected, (int, float)) and not isinstance(expected, bool):
                assert float(cell) == float(expected), (name, cell, expected)
            else:
                assert cell == expected, (name, cell, expected)
