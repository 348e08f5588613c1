"""Word error counting for transcriptions, after the usual normalisation, so that only
recognition errors count: case and punctuation ignored, common spoken abbreviations read as
their words ("mr" is "mister"), and numbers written in digits read as words ("10" is "ten").
Used by the transcription tests and by scripts/bench."""
import os
import re

ABBREVIATIONS = {"mr": "mister", "mrs": "missus", "dr": "doctor", "st": "saint", "ok": "okay"}
_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
         "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n):
    """The words of a whole number below a million, as spoken ("one hundred twenty three")."""
    if n < 20:
        return [_ONES[n]]
    if n < 100:
        return [_TENS[n // 10 - 2]] + (number_words(n % 10) if n % 10 else [])
    if n < 1000:
        return [_ONES[n // 100], "hundred"] + (number_words(n % 100) if n % 100 else [])
    if n < 1_000_000:
        return number_words(n // 1000) + ["thousand"] + (number_words(n % 1000) if n % 1000 else [])
    raise ValueError(f"{n} is beyond what a spoken answer says as one number")


def words(text):
    """The normalised words of `text`."""
    out = []
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text.lower())  # 1,215 is one number
    for word in "".join(c if c.isalnum() or c == "'" else " " for c in text).split():
        word = ABBREVIATIONS.get(word, word)
        out += number_words(int(word)) if re.fullmatch(r"\d{1,6}", word) else [word]
    return out


def edit_distance(a, b):
    """Words substituted, inserted or deleted to turn the list `a` into `b`."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


def errors(reference, heard):
    """(errors, reference words) of what was heard against what was said."""
    said = words(reference)
    return edit_distance(said, words(heard)), len(said)


def rate(said_and_heard):
    """(word error rate, errors, words) of [(what was said, what was heard)]."""
    counts = [errors(said, heard) for said, heard in said_and_heard]
    wrong, count = sum(c[0] for c in counts), sum(c[1] for c in counts)
    return wrong / count, wrong, count


def flite_sentences():
    """The sentences flite reads for the transcription test and the bench (wer_sentences.txt)."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "wer_sentences.txt")) as f:
        return [line.strip() for line in f if line.strip()]


LIBRIVOX_DIR = "/usr/share/pocketsphinx/test/data/librivox"


def librivox_recordings(directory=LIBRIVOX_DIR):
    """[(path of the WAV, what is said)] of pocketsphinx-testdata's LibriVox recordings: real
    people reading. No recogniser setting is made from their text."""
    recordings = []
    with open(f"{directory}/transcription") as f:
        for line in f:
            m = re.fullmatch(r"<s> (.*) </s> \((\S+)\)", line.strip())
            if m:
                recordings.append((f"{directory}/{m.group(2)}.wav", m.group(1)))
    if not recordings:
        raise SystemExit(f"no LibriVox transcriptions in {directory} (pocketsphinx-testdata)")
    return recordings


def librivox_audio(directory=LIBRIVOX_DIR):
    """[(WAV bytes, what is said)] of the LibriVox recordings."""
    audio = []
    for path, said in librivox_recordings(directory):
        with open(path, "rb") as f:
            audio.append((f.read(), said))
    return audio
