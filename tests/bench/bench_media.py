"""The respondent's side in scripts/bench: the intake page's time to first byte and throughput
(against nginx serving the same bytes), and the transcription real-time factor."""
import http.client
import json
import os
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "integration"))
import media_files  # noqa: E402  (flite speech and a WebSocket client)
import word_errors  # noqa: E402  (normalised word error counts)
from nginx_server import Nginx  # noqa: E402
TTFB_SAMPLES = 200
# About thirty seconds when flite reads them one after another.
SPOKEN = ("Thank you for asking. The checkout page was slow and the delivery arrived two days "
          "late. The support team answered quickly and solved my problem, but I waited forty "
          "minutes on the phone before someone answered. The new update made the app crash every "
          "time I open it. Please add a dark mode to the mobile app, and send me an email when my "
          "order is shipped. Everything else worked perfectly and I will come back next year. "
          "I would recommend this service to my friends and family.")


def ttfb_ms(host_port, path, host=None, samples=TTFB_SAMPLES):
    """Median and p99 milliseconds from sending a GET on an open connection to its status
    line, and the body's length."""
    hostname, port = host_port.split(":")
    conn = http.client.HTTPConnection(hostname, int(port), timeout=10)
    headers = {"Host": host} if host else {}
    times, size = [], 0
    for i in range(samples + 10):
        conn.putrequest("GET", path, skip_host=bool(host))
        for k, v in headers.items():
            conn.putheader(k, v)
        # Another respondent each time, as for W7 (the bench gateway trusts this header).
        conn.putheader("X-Forwarded-For", f"10.200.{i // 256 % 256}.{i % 256}")
        started = time.perf_counter()
        conn.endheaders()
        r = conn.getresponse()
        first = time.perf_counter() - started
        body = r.read()
        if r.status != 200:
            raise SystemExit(f"bench: GET {path} answered {r.status}")
        size = len(body)
        if i >= 10:
            times.append(first * 1000)
    conn.close()
    times.sort()
    return times[len(times) // 2], times[int(len(times) * 0.99) - 1], size


def page_bytes(host_port, path, host):
    hostname, port = host_port.split(":")
    conn = http.client.HTTPConnection(hostname, int(port), timeout=10)
    conn.request("GET", path, headers={"Host": host})
    body = conn.getresponse().read()
    conn.close()
    return body


def transcription_rtf(out_dir):
    """The real-time factor of a thirty-second answer, decoded and transcribed on one core."""
    wav = os.path.join(out_dir, "thirty_seconds.wav")
    subprocess.run(["flite", "-voice", "slt", "-t", SPOKEN, "-o", wav], check=True)
    tool = os.path.join(ROOT, "build", "services", "responses", "transcribe_audio")
    runs = []
    for _ in range(3):
        out = subprocess.run(["taskset", "-c", "0", tool, wav], capture_output=True, text=True,
                             check=True)
        runs.append(json.loads(out.stdout))
    best = min(runs, key=lambda r: r["cpu_seconds"])
    return best


_respondents = iter(range(1, 1 << 16))


def upload(gateway_host_port, host, slug, wav_bytes):
    """Starts a response and uploads `wav_bytes` as its voice answer, each time as another
    respondent (the bench gateway trusts X-Forwarded-For), so that the intake limit refuses
    none: (its uuid, when the upload began)."""
    n = next(_respondents)
    respondent = {"Host": host, "X-Forwarded-For": f"10.201.{n // 256}.{n % 256}"}
    hostname, port = gateway_host_port.split(":")
    conn = http.client.HTTPConnection(hostname, int(port), timeout=30)
    conn.request("POST", f"/i/{slug}/responses/", body="{}",
                 headers={**respondent, "Content-Type": "application/json"})
    r = conn.getresponse()
    started = json.loads(r.read())
    if r.status != 201:
        raise SystemExit(f"bench: starting a response answered {r.status}")
    begin = time.perf_counter()
    conn.request("POST", f"/i/{slug}/responses/{started['uuid']}/audio/said/", body=wav_bytes,
                 headers={**respondent, "Content-Type": "audio/wav",
                          "X-Response-Token": started["token"]})
    r = conn.getresponse()
    r.read()
    conn.close()
    if r.status != 200:
        raise SystemExit(f"bench: audio upload answered {r.status}")
    return started["uuid"], begin


def transcription_of(response_uuid, api_get, timeout=120):
    """The voice answer's transcription once the API shows it."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        answers = api_get(response_uuid)
        said = next((a for a in answers if a["field_key"] == "said"), {})
        if isinstance(said.get("transcription"), str):
            return said["transcription"]
        time.sleep(0.05)
    raise SystemExit(f"bench: no transcription within {timeout} s")


def upload_to_transcript_s(gateway_host_port, host, slug, wav_bytes, api_get):
    """Seconds from a recording's upload to its transcription in the API's answer."""
    response_uuid, begin = upload(gateway_host_port, host, slug, wav_bytes)
    transcription_of(response_uuid, api_get)
    return time.perf_counter() - begin


def word_error_rate(gateway_host_port, host, slug, recordings, api_get):
    """(rate, errors, words) of [(WAV bytes, what is said)] uploaded as voice answers and
    transcribed by the service, read back through the API."""
    uploaded = [(upload(gateway_host_port, host, slug, wav)[0], said) for wav, said in recordings]
    return word_errors.rate([(said, transcription_of(response_uuid, api_get))
                             for response_uuid, said in uploaded])


def word_error_rates(gateway, host, slug, api_get):
    """The word error rates of real speech (pocketsphinx-testdata's LibriVox recordings) and
    of flite's voice (the sentences of the transcription test), through the product's own
    path, and the real-time factor of the LibriVox recordings on one core."""
    flite = [(media_files.spoken(sentence), sentence) for sentence in word_errors.flite_sentences()]
    tool = os.path.join(ROOT, "build", "services", "responses", "transcribe_audio")
    paths = [path for path, _ in word_errors.librivox_recordings()]
    out = subprocess.run(["taskset", "-c", "0", tool] + paths, capture_output=True, text=True,
                         check=True)
    runs = [json.loads(line) for line in out.stdout.splitlines()]
    rtf = sum(r["cpu_seconds"] for r in runs) / sum(r["audio_seconds"] for r in runs)
    return {"librivox": word_error_rate(gateway, host, slug, word_errors.librivox_audio(), api_get),
            "flite": word_error_rate(gateway, host, slug, flite, api_get),
            "librivox_rtf": rtf}


def live_latency_ms(gateway, host, slug):
    """A flite recording streamed to the live-transcription WebSocket in 100 ms frames at the
    pace it was spoken: for each partial transcript, the time from sending the frame that
    produced it (the last one sent before it arrived) to its arrival. The page's AudioWorklet
    adds up to 100 ms of buffering before a frame is sent."""
    hostname_port = gateway
    conn = http.client.HTTPConnection(*hostname_port.split(":"), timeout=30)
    conn.request("POST", f"/i/{slug}/responses/", body="{}",
                 headers={"Host": host, "Content-Type": "application/json"})
    started = json.loads(conn.getresponse().read())
    conn.close()
    sock = media_files.WebSocket(gateway, f"/i/{slug}/responses/{started['uuid']}/live/said/"
                                          f"?token={started['token']}", host)
    if sock.status != 101:
        raise SystemExit(f"bench: live transcription answered {sock.status}")
    pcm = media_files.pcm_of(media_files.spoken(SPOKEN[:160]))
    sent, arrivals = [], []

    def receive():
        while True:
            op, payload = sock.receive()
            if op != 1:
                return
            message = json.loads(payload)
            arrivals.append(time.perf_counter())
            if message["type"] != "partial":
                return

    reader = threading.Thread(target=receive)
    reader.start()
    begin = time.perf_counter()
    for n, at in enumerate(range(0, len(pcm), 3200)):
        time.sleep(max(0.0, begin + n * 0.1 - time.perf_counter()))
        sent.append(time.perf_counter())
        sock.send(pcm[at:at + 3200], binary=True)
    sock.send(json.dumps({"type": "end"}))
    reader.join(timeout=30)
    sock.close()
    delays = sorted((a - max(t for t in sent if t <= a)) * 1000 for a in arrivals[:-1] if a >= sent[0])
    if not delays:
        raise SystemExit("bench: no partial transcript came back")
    return delays[len(delays) // 2], delays[-1], len(delays)


def media_rows(scenario, limited, base, key, bench_host, http_call, out_dir, free_port):
    """W7 (the page under load, beside nginx serving its bytes), the page's TTFB, and the
    transcription figures; returns (results, figures)."""
    slug = f"w7-{int(time.time())}"
    questions = [{"prompt": "Tell us about your visit", "type": "voice", "field_key": "said",
                  "configuration": {"max_duration": 120}},
                 {"prompt": "How likely are you to recommend us?", "type": "rating",
                  "field_key": "nps", "configuration": {"scale_type": "nps"}},
                 {"prompt": "Anything else?", "type": "text", "field_key": "note"}]
    status, created = http_call("POST", base + "links/", key,
                                {"name": "Customer visit", "slug": slug, "questions": questions,
                                 "settings": {"description": "Two minutes, voice or text."}})
    link = json.loads(created)
    gateway = limited.url("/")[len("http://"):].rstrip("/")
    body = page_bytes(gateway, f"/i/{slug}", bench_host)
    with Nginx(body, free_port()) as nginx:
        nginx_ttfb = ttfb_ms(f"127.0.0.1:{nginx.port}", "/v1/w0/")
        results = [scenario("W7 nginx, the page's bytes", nginx.url(), "get.lua", None, stack=False)]
    page_ttfb = ttfb_ms(gateway, f"/i/{slug}", bench_host)
    results.append(scenario("W7 intake page GET /i/{slug}", limited.url(f"/i/{slug}"),
                            "intake_page.lua", None, extra_env={"BENCH_HOST": bench_host},
                            gateway=limited))
    rtf = transcription_rtf(out_dir)
    with open(os.path.join(out_dir, "thirty_seconds.wav"), "rb") as f:
        wav = f.read()

    def answers_of(response_uuid):
        _, detail = http_call("GET", f"{base}links/{link['uuid']}/responses/{response_uuid}/", key)
        return json.loads(detail)["answers"]

    upload_s = upload_to_transcript_s(gateway, bench_host, slug, wav, answers_of)
    rates = word_error_rates(gateway, bench_host, slug, answers_of)
    http_call("PATCH", f"{base}links/{link['uuid']}/", key, {"settings": {"live_transcription": True}})
    live = live_latency_ms(gateway, bench_host, slug)
    figures = {"live_partial_ms": live,"page_bytes": len(body), "page_ttfb_ms": page_ttfb[:2], "nginx_ttfb_ms": nginx_ttfb[:2],
               "transcription": rtf, "upload_to_transcript_s": upload_s, "word_error_rates": rates}
    return results, figures


def print_media(figures):
    t = figures["transcription"]
    print(f"\nIntake page ({figures['page_bytes']:,} bytes), time to first byte over "
          f"{TTFB_SAMPLES} sequential GETs: p50 {figures['page_ttfb_ms'][0]:.3f} ms, "
          f"p99 {figures['page_ttfb_ms'][1]:.3f} ms (nginx, same bytes: "
          f"p50 {figures['nginx_ttfb_ms'][0]:.3f} ms, p99 {figures['nginx_ttfb_ms'][1]:.3f} ms)")
    print(f"Transcription of a {t['audio_seconds']:.1f} s answer on one core: {t['cpu_seconds']:.2f} s "
          f"CPU, real-time factor {t['real_time_factor']:.3f}; from upload to the transcription "
          f"in the API: {figures['upload_to_transcript_s']:.2f} s")
    rates = figures["word_error_rates"]
    real, flite = rates["librivox"], rates["flite"]
    print(f"Word error rate through the API: real speech (pocketsphinx-testdata's LibriVox, "
          f"{real[2]} words) {real[0]:.1%} ({real[1]} errors), real-time factor "
          f"{rates['librivox_rtf']:.3f} on one core; flite's voice ({flite[2]} words) "
          f"{flite[0]:.1%} ({flite[1]} errors)")
    p50, worst, count = figures["live_partial_ms"]
    print(f"Live transcription, spoken at its own pace: a partial transcript {p50:.1f} ms (p50), "
          f"{worst:.1f} ms (max) after the frame that made it ({count} partials)")


def media_checks(figures):
    t = figures["transcription"]
    thirty = 30 / t["audio_seconds"] * t["cpu_seconds"]
    worst = figures["live_partial_ms"][1]
    real = figures["word_error_rates"]["librivox"][0]
    real_rtf = figures["word_error_rates"]["librivox_rtf"]
    return {f"real speech word error rate <= 22% ({real:.1%})": real <= 0.22,
            f"real speech real-time factor < 0.3 on one core ({real_rtf:.3f})": real_rtf < 0.3,
            f"a 30 s answer transcribed in < 10 s on one core ({thirty:.1f} s)": thirty < 10,
            # With the page's 100 ms of buffering, words show within 500 ms of being spoken.
            f"live partials within 400 ms of their frame ({worst:.0f} ms)": worst < 400}
