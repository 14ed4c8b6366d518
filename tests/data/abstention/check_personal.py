#!/usr/bin/env python3
"""Check (and optionally re-split) tests/data/abstention/personal-stores.json.

Usage:
    python3 check_personal.py [PATH/personal-stores.json] [--assign-splits]

Checks:
  * format: a JSON list of items with exactly LongMemEval's keys plus "split";
    question_id like p-en-01 / p-en-01_abs; question_type single-session-user
    or multi-session; 12 answerable and 12 `_abs` items per persona;
    sessions of 1-4 turns, roles user/assistant, 12-18 sessions per persona;
  * dates: haystack_dates and question_date match "2026/03/06 (Fri) 12:54",
    the weekday is the real one, sessions are in date order and the
    question_date is after the last session;
  * every item of one persona repeats the same haystack (ids, dates, turns;
    only has_answer differs);
  * answerable items: answer_session_ids exist in the haystack and each has a
    turn with has_answer true; no has_answer true outside them (has_answer is
    set, true/false, only on the turns of answer sessions, as LongMemEval does);
  * `_abs` items: no turn has has_answer true; answer_session_ids (the near-miss
    sessions, possibly none) exist; the replaced word(s) listed in ABS_WORDS
    below, given in all three languages, occur in NO turn of the haystack
    (user or assistant), and at least one of them occurs in the question;
  * split: per persona, half "tune", half "test", by a seeded shuffle done
    separately for answerable and `_abs` items.

Word matching, case-insensitive over Unicode word tokens: a plain entry matches
a token equal to it or to it plus a common English/Swedish/Danish inflection
ending (-s, -es, -ed, -ing, -er, -ar, -or, -en, -et, -e, -n, -na, -ne, -erne,
-arna, ...); an entry with a space matches that token sequence; an entry
starting with "~" matches as a raw substring (catches compounds).
Exit status 1 on any failure. Standard library only.
"""
import datetime
import json
import os
import random
import re
import sys

SEED = "minne-abstention-personal-v1"
KEYS = {"question_id", "question_type", "question", "question_date", "answer",
        "answer_session_ids", "haystack_dates", "haystack_session_ids",
        "haystack_sessions", "split"}
TYPES = {"single-session-user", "multi-session"}
DATE_RX = re.compile(r"^(\d{4})/(\d{2})/(\d{2}) \((Mon|Tue|Wed|Thu|Fri|Sat|Sun)\) (\d{2}):(\d{2})$")
QID_RX = re.compile(r"^(p-(?:en|sv|da))-(\d{2})(_abs)?$")
SUFFIXES = ["s", "es", "ed", "d", "ing", "er", "ers", "ar", "or", "en", "et", "e",
            "te", "n", "na", "ne", "rne", "ene", "erne", "arna", "erna", "orna",
            "ens", "ets", "ies", "ied"]

# The word(s) each `_abs` question swaps in (or asks about), in all three
# languages, which must occur nowhere in that persona's haystack.
ABS_WORDS = {
    "p-en-01_abs": ["manchester"],
    "p-en-02_abs": ["cat", "kat", "katt", "kitten", "killing"],
    "p-en-03_abs": ["spanish", "spansk", "~español"],
    "p-en-04_abs": ["niece", "niese", "brorsdatter", "søsterdatter", "~døtre", "systerdotter", "brorsdotter", "~döttrar"],
    "p-en-05_abs": ["ibuprofen", "ipren", "ibumetin"],
    "p-en-06_abs": ["optician", "optiker", "optometrist", "eye test"],
    "p-en-07_abs": ["~marathon", "~maraton", "half"],
    "p-en-08_abs": ["brand", "oatly", "mærke", "märke"],
    "p-en-09_abs": ["june", "juni"],
    "p-en-10_abs": ["~blood", "blodtype", "blodgrupp"],
    "p-en-11_abs": ["car", "bil", "kørekort", "körkort", "driving", "drive"],
    "p-en-12_abs": ["rent", "husleje", "hyra"],
    "p-sv-01_abs": ["hund", "dog", "vovve"],
    "p-sv-02_abs": ["stockholm"],
    "p-sv-03_abs": ["baltic", "östersjö", "østersø"],
    "p-sv-04_abs": ["syster", "sister", "søster", "søstre"],
    "p-sv-05_abs": ["nötter", "nöt", "nut", "nødder", "allergi", "allergisk", "allergic"],
    "p-sv-06_abs": ["tandläkare", "tandlæge", "dentist"],
    "p-sv-07_abs": ["~piano"],
    "p-sv-08_abs": ["mother", "mamma", "mor", "mum", "mom"],
    "p-sv-09_abs": ["märke", "brand", "zoégas", "gevalia", "löfbergs"],
    "p-sv-10_abs": ["blodgrupp", "~blood", "blodtype"],
    "p-sv-11_abs": ["parti", "röstar", "rösta", "vote", "valet"],
    "p-sv-12_abs": ["shoe", "skostorlek", "skonummer", "skostørrelse"],
    "p-da-01_abs": ["københavn", "copenhagen", "köpenhamn"],
    "p-da-02_abs": ["hund", "dog", "vovse"],
    "p-da-03_abs": ["søster", "søstre", "syster", "sister", "lillesøster"],
    "p-da-04_abs": ["badminton"],
    "p-da-05_abs": ["kusine", "kusin", "cousin", "fætter"],
    "p-da-06_abs": ["allergi", "allergisk", "allergy", "allergic"],
    "p-da-07_abs": ["moster", "mostre", "faster", "fastre", "tante", "aunt"],
    "p-da-08_abs": ["stockholm"],
    "p-da-09_abs": ["mærke", "märke", "brand", "medtronic", "minimed", "omnipod", "tandem"],
    "p-da-10_abs": ["blodtype", "blodgrupp", "~blood"],
    "p-da-11_abs": ["parti", "stemmer", "vote", "valg"],
    "p-da-12_abs": ["dentist", "tandlæge", "tandläkare"],
}


def toks(text):
    return re.findall(r"[^\W_]+", text.lower())


def token_matches(tok, w):
    if tok == w:
        return True
    if tok.startswith(w) and tok[len(w):] in SUFFIXES:
        return True
    if w.endswith("e") and tok == w[:-1] + "ing":
        return True
    if w.endswith("y") and tok in (w[:-1] + "ies", w[:-1] + "ied"):
        return True
    return False


def occurs(entry, text):
    low = text.lower()
    if entry.startswith("~"):
        return entry[1:] in low
    t = toks(low)
    if " " in entry:
        return (" " + entry + " ") in (" " + " ".join(t) + " ")
    return any(token_matches(x, entry) for x in t)


def parse_date(s):
    m = DATE_RX.match(s)
    if not m:
        return None, "bad date format"
    y, mo, d, wd, hh, mm = m.groups()
    try:
        dt = datetime.datetime(int(y), int(mo), int(d), int(hh), int(mm))
    except ValueError:
        return None, "impossible date"
    if dt.strftime("%a") != wd:
        return None, f"weekday {wd} is wrong (it is {dt.strftime('%a')})"
    return dt, None


def seeded_splits(items):
    groups = {}
    for it in items:
        m = QID_RX.match(it["question_id"])
        if not m:
            continue
        groups.setdefault((m.group(1), bool(m.group(3))), []).append(it["question_id"])
    out = {}
    for (pid, ab), ids in sorted(groups.items()):
        ids = sorted(ids)
        random.Random(f"{SEED}:{pid}:{'abs' if ab else 'ans'}").shuffle(ids)
        half = len(ids) // 2
        for k, q in enumerate(ids):
            out[q] = "tune" if k < half else "test"
    return out


def strip(hs):
    return [[(t.get("role"), t.get("content")) for t in s] for s in hs]


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    args = [a for a in argv[1:] if not a.startswith("--")]
    path = args[0] if args else os.path.join(here, "personal-stores.json")
    items = json.load(open(path, encoding="utf-8"))
    if "--assign-splits" in argv:
        sp = seeded_splits(items)
        for it in items:
            it["split"] = sp.get(it["question_id"], "")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(items, f, ensure_ascii=False, indent=1)
            f.write("\n")

    errors = []
    err = errors.append
    if not isinstance(items, list):
        print("FAIL top level is not a list")
        return 1
    expected = seeded_splits(items)
    personas = {}
    seen = set()
    for it in items:
        qid = it.get("question_id", "?")
        if set(it) != KEYS:
            err(f"{qid}: keys {sorted(set(it) ^ KEYS)} differ from LongMemEval's + split")
            continue
        m = QID_RX.match(qid)
        if not m:
            err(f"{qid}: bad question_id")
            continue
        if qid in seen:
            err(f"{qid}: duplicate question_id")
        seen.add(qid)
        pid, is_abs = m.group(1), bool(m.group(3))
        personas.setdefault(pid, []).append(it)
        if it["question_type"] not in TYPES:
            err(f"{qid}: question_type {it['question_type']!r}")
        for k in ("question", "answer"):
            if not isinstance(it[k], str) or not it[k].strip():
                err(f"{qid}: empty {k}")
        sids, dates, hs = it["haystack_session_ids"], it["haystack_dates"], it["haystack_sessions"]
        if not (len(sids) == len(dates) == len(hs)):
            err(f"{qid}: haystack lists differ in length")
            continue
        if len(set(sids)) != len(sids):
            err(f"{qid}: duplicate session ids")
        if not 12 <= len(hs) <= 18:
            err(f"{qid}: {len(hs)} sessions (want 12-18)")
        prev = None
        for sid, ds in zip(sids, dates):
            dt, why = parse_date(ds)
            if why:
                err(f"{qid}: session {sid} date {ds!r}: {why}")
                continue
            if prev and dt <= prev:
                err(f"{qid}: session {sid} is not after the previous one")
            prev = dt
        qdt, why = parse_date(it["question_date"])
        if why:
            err(f"{qid}: question_date {it['question_date']!r}: {why}")
        elif prev and qdt <= prev:
            err(f"{qid}: question_date is not after the last session")
        for sid, s in zip(sids, hs):
            if not 1 <= len(s) <= 4:
                err(f"{qid}: session {sid} has {len(s)} turns (want 1-4)")
            for t in s:
                if set(t) - {"role", "content", "has_answer"} or t.get("role") not in ("user", "assistant") \
                        or not isinstance(t.get("content"), str) \
                        or ("has_answer" in t and not isinstance(t["has_answer"], bool)):
                    err(f"{qid}: malformed turn in {sid}: {t}")
        ans = it["answer_session_ids"]
        if not isinstance(ans, list) or any(a not in sids for a in ans):
            err(f"{qid}: answer_session_ids {ans} not all in the haystack")
            ans = [a for a in ans if a in sids] if isinstance(ans, list) else []
        for sid, s in zip(sids, hs):
            flagged = [t for t in s if "has_answer" in t]
            true = [t for t in s if t.get("has_answer") is True]
            if sid not in ans and flagged:
                err(f"{qid}: has_answer set in non-answer session {sid}")
            if sid in ans and len(flagged) != len(s):
                err(f"{qid}: answer session {sid} lacks has_answer on some turns")
            if is_abs and true:
                err(f"{qid}: _abs item has has_answer true in {sid}")
            if not is_abs and sid in ans and not true:
                err(f"{qid}: answer session {sid} has no has_answer turn")
        if not is_abs and not ans:
            err(f"{qid}: answerable item without answer_session_ids")
        if is_abs:
            words = ABS_WORDS.get(qid)
            if not words:
                err(f"{qid}: no ABS_WORDS entry")
            else:
                if not any(occurs(w, it["question"]) for w in words):
                    err(f"{qid}: none of {words} occurs in the question {it['question']!r}")
                for sid, s in zip(sids, hs):
                    for i, t in enumerate(s):
                        for w in words:
                            if occurs(w, t["content"]):
                                err(f"{qid}: {w!r} occurs in {sid} turn {i}: {t['content']!r}")
        if it["split"] != expected.get(qid):
            err(f"{qid}: split {it['split']!r} != seeded {expected.get(qid)!r}")

    for k in ABS_WORDS:
        if k not in seen:
            err(f"ABS_WORDS has {k} but the data has no such item")
    summary = []
    for pid, its in sorted(personas.items()):
        n_abs = sum(1 for x in its if x["question_id"].endswith("_abs"))
        n_ans = len(its) - n_abs
        if n_ans != 12 or n_abs != 12:
            err(f"{pid}: {n_ans} answerable / {n_abs} _abs (want 12 / 12)")
        ref = its[0]
        for x in its[1:]:
            if (x["haystack_session_ids"], x["haystack_dates"], strip(x["haystack_sessions"])) != \
                    (ref["haystack_session_ids"], ref["haystack_dates"], strip(ref["haystack_sessions"])):
                err(f"{x['question_id']}: haystack differs from {ref['question_id']}'s")
        qd = {x["question_date"] for x in its}
        tune = sum(1 for x in its if x["split"] == "tune")
        if tune * 2 != len(its):
            err(f"{pid}: {tune} tune of {len(its)}")
        summary.append(f"{pid}: {len(ref['haystack_sessions'])} sessions, {n_ans} answerable + {n_abs} _abs, "
                       f"{tune} tune / {len(its) - tune} test")
    if errors:
        for e in errors:
            print("FAIL", e)
        print(f"{len(errors)} problem(s)")
        return 1
    print("OK:", "; ".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
