"""Long voice answers (API-CONTRACT section 10): an Opus recording (WebM or Ogg) may be as large
as the question's max_duration at 64 kbit/s, up to an hour's answer; a WAV stays at 10 MiB.
Stored long recordings are read in parts, as a player seeks."""
import urllib.parse

import media_files
from harness import Workspace, expect, intake, test, wait_until

SENTENCE = "the delivery was late but the support team was wonderful"


def _voice_link(ws, slug, max_duration):
    return ws.link(slug=slug, questions=[
        {"prompt": "Tell us everything", "type": "voice", "field_key": "said",
         "configuration": {"max_duration": max_duration}}])


def _upload(ws, slug, started, body, content_type):
    return ws.intake("POST", f"/i/{slug}/responses/{started['uuid']}/audio/said/", token=started["token"],
                     headers={"Content-Type": content_type}, body=body, timeout=120)


def _transcription(ws, link, response_uuid):
    found = []

    def done():
        record = expect(ws.call("GET", f"links/{link['uuid']}/responses/{response_uuid}/"), 200)
        answer = next(a for a in record["answers"] if a["field_key"] == "said")
        if isinstance(answer.get("transcription"), str):
            found.append(answer)
        return found
    wait_until(done, timeout=120, what="the long recording's transcription")
    return found[0]


@test
def a_six_minute_webm_opus_answer_is_stored_timed_and_transcribed():
    ws = Workspace()
    link = _voice_link(ws, "six-minutes", 600)
    recording = media_files.long_recording(SENTENCE, 360)
    st = ws.start("six-minutes")
    answer = expect(_upload(ws, "six-minutes", st, recording, "audio/webm"), 200)
    assert 355 < answer["duration"] < 365, answer
    got = _transcription(ws, link, st["uuid"])
    words = got["transcription"].split()
    assert {"delivery", "support", "team"} <= set(words), got["transcription"]
    # Both sentences, one at each end of the six minutes, were heard.
    assert words.count("support") == 2, got["transcription"]
    # The player seeks: the last bytes of the stored recording (rewritten with its index as it
    # was stored, so not byte for byte the upload), then a middle.
    url = urllib.parse.urlsplit(got["audio_url"])
    path = f"{url.path}?{url.query}"
    stored = intake(ws.info["host"], "GET", path).body
    assert abs(len(stored) - len(recording)) < 64 * 1024, (len(recording), len(stored))
    end = intake(ws.info["host"], "GET", path, headers={"Range": "bytes=-1000"})
    assert end.status == 206 and end.body == stored[-1000:], end.status
    assert end.header("Content-Range") == f"bytes {len(stored) - 1000}-{len(stored) - 1}/{len(stored)}"
    middle = intake(ws.info["host"], "GET", path, headers={"Range": "bytes=100000-100099"})
    assert middle.status == 206 and middle.body == stored[100000:100100]


@test
def opus_recordings_are_sized_by_max_duration_and_wav_by_10_mib():
    ws = Workspace()
    _voice_link(ws, "short-limit", 600)
    _voice_link(ws, "hour-limit", 3600)
    wav = media_files.long_recording(SENTENCE, 360, fmt="wav")
    assert len(wav) > 10 * 1024 * 1024
    expect(_upload(ws, "short-limit", ws.start("short-limit"), wav, "audio/wav"), 413, "PAYLOAD_TOO_LARGE")
    # 380 s at 256 kbit/s, about 12 MB: over 600 s at 64 kbit/s (so a WAV's 10 MiB applies),
    # within 3600 s at 64 kbit/s (28.8 MB).
    large = media_files.quiet_opus(380)
    assert 10 * 1024 * 1024 < len(large) < 28_800_000, len(large)
    r = _upload(ws, "short-limit", ws.start("short-limit"), large, "audio/webm")
    expect(r, 413, "PAYLOAD_TOO_LARGE")
    assert "64 kbit/s" in r.json["error"]["message"], r.json
    answer = expect(_upload(ws, "hour-limit", ws.start("hour-limit"), large, "audio/webm"), 200)
    assert 379 < answer["duration"] < 381, answer
