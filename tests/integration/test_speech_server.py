"""Transcription by a speech server (API-CONTRACT section 14): a recording's transcript is the
local one at once and the server's when it arrives, insights following; every way the server
can fail ends with the local transcript, and no answer is lost."""
import json

import media_files
from harness import ExtraProcess, Workspace, expect, sql, test, wait_until
from speech_stub import SpeechStub, wav_format

STT_KEY = "stt-secret-7c1d04e9b2"
SENTENCE = "the delivery was late but the support team was wonderful"
# The stub's behaviour, chosen by a word of the question's prompt (speech_stub.py).
SERVED = ("good", "slow", "flaky")
FAILED = ("malformed", "timeout", "broken", "refused")


def _speech_responses(stub, **extra):
    settings = dict(TRANSCRIBER="openai", STT_BASE_URL=stub.base_url, STT_MODEL="stub-whisper",
                    STT_API_KEY=STT_KEY, STT_TIMEOUT_MS="1500", STT_MAX_ATTEMPTS="2",
                    STT_RETRY_DELAY_MS="100", ACCESS_LOG="true")
    settings.update(extra)
    return ExtraProcess("responses", log_name="responses-stt", **settings)


def _gateway(responses):
    return ExtraProcess("gateway", log_name="gateway-stt", RESPONSES_ADDR=responses.address)


def _heard():
    """What the stub answers for SENTENCE: its length."""
    return f"Server heard {len(media_files.pcm_of(media_files.spoken(SENTENCE))) / 32000:.1f} seconds."


def _voice_link(ws, slug, words):
    return ws.link(slug=slug, questions=[
        {"prompt": f"Tell us about the {w} part", "type": "voice", "field_key": w,
         "configuration": {"max_duration": 60},
         "evaluator_config": {"custom_fields": ["delivery_time"]}} for w in words])


def _record(ws, slug, words, gateway):
    """A response answering each of `words` with the sentence spoken, submitted."""
    st = expect(ws.intake("POST", f"/i/{slug}/responses/", json={}, gateway=gateway), 201)
    for w in words:
        expect(ws.intake("POST", f"/i/{slug}/responses/{st['uuid']}/audio/{w}/", token=st["token"],
                         headers={"Content-Type": "audio/wav"}, body=media_files.spoken(SENTENCE),
                         timeout=60, gateway=gateway), 200)
    expect(ws.intake("POST", f"/i/{slug}/responses/{st['uuid']}/submit/", token=st["token"], json={},
                     gateway=gateway), 200)
    return st


def _answers(ws, link, response_uuid):
    record = expect(ws.call("GET", f"links/{link['uuid']}/responses/{response_uuid}/"), 200)
    return {a["field_key"]: a for a in record["answers"]}


def _jobs_left(response_uuid):
    return int(sql("SELECT count(*) FROM responses.speech_server_jobs "
                   f"WHERE response_uuid = '{response_uuid}'")[0][0])


@test
def a_speech_servers_transcript_replaces_the_local_one_and_its_failures_leave_the_local():
    ws = Workspace()
    words = SERVED + FAILED
    link = _voice_link(ws, "stt", words)
    with SpeechStub(slow_seconds=1.0, hang_seconds=4.0) as stub, _speech_responses(stub) as responses, \
            _gateway(responses) as gw:
        st = _record(ws, "stt", words, gw.address)

        def settled():
            got = _answers(ws, link, st["uuid"])
            return (all(isinstance(got[w].get("transcription"), str) for w in words)
                    and _jobs_left(st["uuid"]) == 0 and got)
        wait_until(settled, timeout=60, what="every transcription settled")
        got = _answers(ws, link, st["uuid"])
        for w in SERVED:
            assert got[w]["transcription"] == _heard(), (w, got[w])
            # Insights follow the server's text.
            assert "heard" in json.dumps(got[w]["ai_insights"]).lower(), (w, got[w]["ai_insights"])
        for w in FAILED:
            assert "delivery" in got[w]["transcription"].split(), (w, got[w])
            assert "heard" not in json.dumps(got[w]["ai_insights"]).lower(), (w, got[w]["ai_insights"])
        # Attempts: one where the server answered or refused the request itself (413), two
        # (STT_MAX_ATTEMPTS) where it failed.
        assert [len(stub.calls(w)) for w in words] == [1, 1, 2, 2, 2, 2, 1], \
            [len(stub.calls(w)) for w in words]
        call = stub.calls("good")[0]
        assert call["path"] == "/v1/audio/transcriptions"
        assert call["headers"]["Authorization"] == f"Bearer {STT_KEY}"
        assert call["fields"] == {"model": "stub-whisper", "response_format": "json",
                                  "prompt": "Tell us about the good part Delivery time."}, call["fields"]
        file_name, content_type, data = call["file"]
        assert (file_name, content_type) == ("recording.wav", "audio/wav")
        assert wav_format(data) == (1, 16000, 16)
        # Searchable by the server's words.
        found = expect(ws.call("GET", f"links/{link['uuid']}/responses/?search=heard"), 200)
        assert found["count"] == 1, found
        log = open(responses.log_path).read()
    assert STT_KEY not in log, "the speech server's API key was logged"
    assert "speech_server_call_failed" in log


@test
def a_speech_server_job_survives_the_death_of_its_worker():
    ws = Workspace()
    link = _voice_link(ws, "stt-dies", ["slow"])
    # The server answers after 3 s; the first process is killed while it waits.
    with SpeechStub(slow_seconds=3.0) as stub:
        with _speech_responses(stub, STT_TIMEOUT_MS="5000") as first, _gateway(first) as gw:
            st = _record(ws, "stt-dies", ["slow"], gw.address)
            wait_until(lambda: stub.calls("slow"), 30, "the first speech-server call")
            first.kill()
        local = _answers(ws, link, st["uuid"])["slow"]["transcription"]
        assert "delivery" in local.split(), local
        assert _jobs_left(st["uuid"]) == 1
        # Its claim runs out (twice the 5 s timeout and 10 s) and another worker takes the job.
        with _speech_responses(stub, STT_TIMEOUT_MS="5000"):
            wait_until(lambda: _jobs_left(st["uuid"]) == 0, 45, "the job taken again")
        assert _answers(ws, link, st["uuid"])["slow"]["transcription"] == _heard()
        assert len(stub.calls("slow")) == 2


@test
def a_live_recording_goes_to_the_speech_server_too():
    ws = Workspace()
    link = ws.link(slug="stt-live", settings={"live_transcription": True}, questions=[
        {"prompt": "Tell us, good?", "type": "voice", "field_key": "said"}])
    with SpeechStub() as stub, _speech_responses(stub) as responses, _gateway(responses) as gw:
        st = expect(ws.intake("POST", "/i/stt-live/responses/", json={}, gateway=gw.address), 201)
        path = f"/i/stt-live/responses/{st['uuid']}/live/said/?token={st['token']}"
        sock = media_files.WebSocket(gw.address, path, ws.info["host"])
        assert sock.status == 101, sock.head
        pcm = media_files.pcm_of(media_files.spoken(SENTENCE))
        for at in range(0, len(pcm), 32000):
            sock.send(pcm[at:at + 32000], binary=True)
        sock.send(json.dumps({"type": "end"}))
        while True:
            op, payload = sock.receive()
            assert op != 8, payload
            final = json.loads(payload)
            if final["type"] == "final":
                break
        sock.close()
        assert "delivery" in final["text"].split(), final
        wait_until(lambda: _answers(ws, link, st["uuid"])["said"]["transcription"] == _heard(),
                   30, "the server's transcript")
        assert len(stub.calls("good")) == 1
