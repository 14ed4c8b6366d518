#!/usr/bin/env python3
"""Check and build tests/data/abstention/general-requests.json.

Usage:
    python3 general_requests.py check
    python3 general_requests.py build OUT_DIR [--split tune|test]   (default: test)
    python3 general_requests.py assign-splits

general-requests.json is a compact list (one object per line) of questions put
to the three personas of personal-stores.json:
  * g-xx-01_abs ... g-xx-14_abs: general assistant requests (jokes, weather,
    trivia, arithmetic, coding, translation, ...) that no memory of persona
    p-xx helps with; recall should return nothing;
  * g-xx-01 ... g-xx-10: terse questions whose answer is in p-xx's haystack,
    phrased without any first-person word and without the persona's name.

`check` verifies:
  * format: exactly the keys question_id, persona, question, kind,
    answer_session_ids, evidence, split (+ answer on answerable items only);
    ids g-(en|sv|da)-NN[_abs], persona matching the id, 14 `_abs` items
    numbered 01-14 and 10 answerable items numbered 01-10 per persona,
    unique ids and questions, 2-20 words per question;
  * kind: one of KINDS for `_abs` items, "impersonal" for answerable ones;
  * `_abs` items: answer_session_ids and evidence are empty;
  * answerable items: a non-empty answer; evidence is a non-empty list of
    unique [session_id, turn_index] pairs naming existing sessions of the
    persona's haystack and existing turns (0-based) of them; the sessions of
    the evidence are exactly answer_session_ids;
  * answerable questions contain no first-person word of English, Swedish or
    Danish (FIRST_PERSON, whole word, case-insensitive) and not the persona's
    first name or surname (also with a genitive -s);
  * the persona's haystack exists in personal-stores.json, is the same in all
    of its items there, and they share one question_date;
  * split: the seeded assignment below.

Split: one random.Random(20261204) stream; for each persona in sorted order
(p-da, p-en, p-sv) and, within it, first the `_abs` ids then the answerable
ids (each group sorted), the group is shuffled and its first half is "tune",
the rest "test". That gives 7 + 5 tune and 7 + 5 test per persona.

`build` writes OUT_DIR/general-SPLIT.json in LongMemEval's item format, for
`minne eval longmemeval`: each item gets its persona's haystack
(haystack_dates, haystack_session_ids, haystack_sessions, turns with role and
content), question_type "single-session-user", the persona's question_date,
answer "" for `_abs` items, and has_answer true on the evidence turns, false on
the other turns of the answer sessions, and absent elsewhere.
Exit status 1 on any failure. Standard library only.
"""
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "general-requests.json")
STORES = os.path.join(HERE, "personal-stores.json")
SEED = 20261204
PERSONAS = {"p-en": ("Hannah", "Whitlock"), "p-sv": ("Lina", "Bergström"), "p-da": ("Mads", "Kjær")}
KINDS = {"joke", "weather", "trivia", "definition", "math", "coding", "translation",
         "writing", "news", "smalltalk", "conversion", "other"}
N_ABS, N_ANS = 14, 10
KEYS = {"question_id", "persona", "question", "kind", "answer_session_ids", "evidence", "split"}
QID_RX = re.compile(r"^g-(en|sv|da)-(\d{2})(_abs)?$")
FIRST_PERSON = {
    # English (tokens: "I'm" -> "i", "m")
    "i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves", "im", "ive",
    # Swedish
    "jag", "mig", "mej", "min", "mitt", "mina", "vi", "oss", "vår", "vårt", "våra",
    # Danish (and the Norwegian forms)
    "jeg", "mit", "mine", "os", "vores", "vor", "vort", "meg",
}
LME_KEYS = ["question_id", "question_type", "question", "question_date", "answer",
            "answer_session_ids", "haystack_dates", "haystack_session_ids", "haystack_sessions"]


def toks(text):
    return re.findall(r"[^\W_]+", text.lower())


def load():
    return json.load(open(DATA, encoding="utf-8"))


def save(items):
    with open(DATA, "w", encoding="utf-8") as f:
        f.write("[\n" + ",\n".join(json.dumps(x, ensure_ascii=False) for x in items) + "\n]\n")


def seeded_splits(items):
    groups = {}
    for it in items:
        m = QID_RX.match(it.get("question_id", ""))
        if m:
            groups.setdefault(("p-" + m.group(1), bool(m.group(3))), []).append(it["question_id"])
    rng = random.Random(SEED)
    out = {}
    for pid in sorted({p for p, _ in groups}):
        for is_abs in (True, False):
            ids = sorted(groups.get((pid, is_abs), []))
            rng.shuffle(ids)
            half = len(ids) // 2
            for k, q in enumerate(ids):
                out[q] = "tune" if k < half else "test"
    return out


def haystacks(errors):
    """persona -> (question_date, session_ids, dates, sessions of {role, content})."""
    out = {}
    for it in json.load(open(STORES, encoding="utf-8")):
        pid = it["question_id"][:4]
        hs = [[{"role": t["role"], "content": t["content"]} for t in s] for s in it["haystack_sessions"]]
        cur = (it["question_date"], it["haystack_session_ids"], it["haystack_dates"], hs)
        if pid not in out:
            out[pid] = cur
        elif out[pid] != cur:
            errors.append(f"personal-stores.json: {it['question_id']} has another haystack or "
                          f"question_date than the first {pid} item")
    return out


def check(items):
    errors = []
    err = errors.append
    if not isinstance(items, list):
        return ["top level is not a list"], {}
    hay = haystacks(errors)
    expected = seeded_splits(items)
    seen, questions = set(), set()
    numbers = {}
    for it in items:
        qid = it.get("question_id", "?") if isinstance(it, dict) else "?"
        if not isinstance(it, dict):
            err(f"{qid}: not an object")
            continue
        m = QID_RX.match(qid)
        if not m:
            err(f"{qid}: bad question_id")
            continue
        is_abs = bool(m.group(3))
        want = KEYS if is_abs else KEYS | {"answer"}
        if set(it) != want:
            err(f"{qid}: keys differ from the format by {sorted(set(it) ^ want)}")
            continue
        if qid in seen:
            err(f"{qid}: duplicate question_id")
        seen.add(qid)
        pid = "p-" + m.group(1)
        if it["persona"] != pid:
            err(f"{qid}: persona {it['persona']!r}, the id says {pid}")
        numbers.setdefault((pid, is_abs), []).append(int(m.group(2)))
        q = it["question"]
        if not isinstance(q, str) or not q.strip():
            err(f"{qid}: empty question")
            continue
        if (pid, q.strip().lower()) in questions:
            err(f"{qid}: duplicate question {q!r}")
        questions.add((pid, q.strip().lower()))
        if not 2 <= len(q.split()) <= 20:
            err(f"{qid}: {len(q.split())} words (want 2-20)")
        if pid not in hay:
            err(f"{qid}: persona {pid} has no haystack in personal-stores.json")
            continue
        _, sids, _, hs = hay[pid]
        sessions = dict(zip(sids, hs))
        if is_abs:
            if it["kind"] not in KINDS:
                err(f"{qid}: kind {it['kind']!r} not in {sorted(KINDS)}")
            if it["answer_session_ids"] != [] or it["evidence"] != []:
                err(f"{qid}: _abs item with answer_session_ids or evidence")
        else:
            if it["kind"] != "impersonal":
                err(f"{qid}: kind {it['kind']!r}, want 'impersonal'")
            if not isinstance(it["answer"], str) or not it["answer"].strip():
                err(f"{qid}: empty answer")
            ev = it["evidence"]
            if not isinstance(ev, list) or not ev:
                err(f"{qid}: no evidence")
                ev = []
            ev_sessions, pairs = [], set()
            for e in ev:
                if not (isinstance(e, list) and len(e) == 2 and isinstance(e[0], str)
                        and isinstance(e[1], int) and not isinstance(e[1], bool)):
                    err(f"{qid}: evidence entry {e!r} is not [session_id, turn_index]")
                    continue
                if tuple(e) in pairs:
                    err(f"{qid}: evidence {e!r} listed twice")
                pairs.add(tuple(e))
                if e[0] not in sessions:
                    err(f"{qid}: evidence session {e[0]} not in {pid}'s haystack")
                    continue
                if not 0 <= e[1] < len(sessions[e[0]]):
                    err(f"{qid}: {e[0]} has no turn {e[1]} (it has {len(sessions[e[0]])})")
                if e[0] not in ev_sessions:
                    ev_sessions.append(e[0])
            ans = it["answer_session_ids"]
            if not isinstance(ans, list) or sorted(ans) != sorted(ev_sessions) or len(set(ans)) != len(ans):
                err(f"{qid}: answer_session_ids {ans} != the evidence sessions {ev_sessions}")
            words = toks(q)
            fp = sorted(set(words) & FIRST_PERSON)
            if fp:
                err(f"{qid}: first-person word(s) {fp} in {q!r}")
            for name in PERSONAS[pid]:
                n = name.lower()
                if any(w in (n, n + "s") for w in words):
                    err(f"{qid}: the persona's name {name!r} in {q!r}")
        if it["split"] != expected.get(qid):
            err(f"{qid}: split {it['split']!r} != seeded {expected.get(qid)!r}")
    summary = []
    for pid in sorted(PERSONAS):
        for is_abs, n in ((True, N_ABS), (False, N_ANS)):
            got = sorted(numbers.get((pid, is_abs), []))
            if got != list(range(1, n + 1)):
                err(f"{pid}: {'_abs' if is_abs else 'answerable'} items numbered {got}, want 01-{n:02d}")
        its = [x for x in items if isinstance(x, dict) and x.get("persona") == pid]
        t_abs = sum(1 for x in its if x.get("split") == "tune" and x["question_id"].endswith("_abs"))
        t_ans = sum(1 for x in its if x.get("split") == "tune" and not x["question_id"].endswith("_abs"))
        summary.append(f"{pid}: {N_ANS} answerable + {N_ABS} _abs, tune {t_ans} + {t_abs}")
    return errors, summary


def main(argv):
    if not argv or argv[0] not in ("check", "build", "assign-splits"):
        sys.exit(__doc__)
    items = load()
    if argv[0] == "assign-splits":
        sp = seeded_splits(items)
        for it in items:
            it["split"] = sp.get(it.get("question_id"), "")
        save(items)
    errors, summary = check(items)
    if errors:
        for e in errors:
            print("FAIL", e)
        print(f"{len(errors)} problem(s)")
        return 1
    if argv[0] != "build":
        print("OK:", "; ".join(summary))
        return 0
    args = argv[1:]
    split = "test"
    if "--split" in args:
        i = args.index("--split")
        split = args[i + 1] if i + 1 < len(args) else ""
        args = args[:i] + args[i + 2:]
    if len(args) != 1 or split not in ("tune", "test"):
        sys.exit(__doc__)
    out_dir = args[0]
    os.makedirs(out_dir, exist_ok=True)
    hay = haystacks([])
    out = []
    for it in items:
        if it["split"] != split:
            continue
        qdate, sids, dates, hs = hay[it["persona"]]
        is_abs = it["question_id"].endswith("_abs")
        ev = {(s, t) for s, t in it["evidence"]}
        ans = set(it["answer_session_ids"])
        sessions = []
        for sid, s in zip(sids, hs):
            turns = []
            for i, t in enumerate(s):
                t = dict(t)
                if sid in ans:
                    t["has_answer"] = (sid, i) in ev
                turns.append(t)
            sessions.append(turns)
        row = {
            "question_id": it["question_id"],
            "question_type": "single-session-user",
            "question": it["question"],
            "question_date": qdate,
            "answer": "" if is_abs else it["answer"],
            "answer_session_ids": list(it["answer_session_ids"]),
            "haystack_dates": list(dates),
            "haystack_session_ids": list(sids),
            "haystack_sessions": sessions,
        }
        out.append({k: row[k] for k in LME_KEYS})
    path = os.path.join(out_dir, f"general-{split}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False)
    n_abs = sum(1 for x in out if x["question_id"].endswith("_abs"))
    print(f"wrote {path}: {len(out) - n_abs} answerable + {n_abs} _abs ({split})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
