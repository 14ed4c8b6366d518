#!/usr/bin/env python3
"""Check (and optionally re-split) tests/data/abstention/longmemeval-variants.json.

Usage:
    python3 check_variants.py PATH/longmemeval-s-dev.json [--variants FILE] [--assign-splits]

Checks, for every item of the variants file:
  * `base` is a known question_id of the dev file, is answerable (no `_abs`
    suffix) and is not single-session-assistant / single-session-preference;
  * every eligible dev question has exactly two variants;
  * `changed` has the form "OLD -> NEW", OLD occurs in the base question and
    the variant is exactly the base question with OLD replaced by NEW (the
    rest word for word);
  * `kind` is one of the allowed kinds;
  * every new word (the words of NEW that are not in OLD and not a function
    word, hyphenated words also split into their parts) occurs in NO turn
    (user or assistant) of the base item's haystack_sessions, whole-word,
    case-insensitively, in any of the obvious inflections
    (plural -s/-es/-ies, -ing, -ed/-d, possessive, singular of a plural);
  * `split` equals the seeded assignment below (one variant of each base is
    "tune", the other "test").

Exit status 1 on any failure. With --assign-splits the split fields are
(re)computed from the seed and written back before checking.
Standard library only.
"""
import json
import os
import random
import re
import sys

SEED = "minne-abstention-variants-v1"
KINDS = {"modifier", "entity", "object", "person-relation", "place", "brand",
         "activity", "false-premise", "time-anchor"}
SKIP_TYPES = {"single-session-assistant", "single-session-preference"}
STOP = {"a", "an", "the", "my", "me", "i", "of", "in", "at", "on", "to", "for",
        "with", "and", "or", "did", "do", "does", "has", "have", "had", "was",
        "is", "are", "by", "from", "our", "his", "her", "their", "its", "up",
        "this", "that", "over", "been"}
TOKEN = re.compile(r"[a-z0-9]+(?:[-'\u2019][a-z0-9]+)*")


def tokens(text):
    out = []
    for t in TOKEN.findall(text.lower()):
        t = re.sub(r"['\u2019]s$", "", t)
        out.append(t)
    return out


def new_words(old, new):
    old_t = set(tokens(old))
    words = []
    for t in tokens(new):
        if t in old_t or t in STOP:
            continue
        words.append(t)
        if "-" in t:
            words.extend(p for p in t.split("-") if p not in STOP and p not in old_t)
    return sorted(set(words))


def forms(w):
    f = {w, w + "s", w + "es", w + "ing", w + "ed", w + "d"}
    if w.endswith("y"):
        f |= {w[:-1] + "ies", w[:-1] + "ied"}
    if w.endswith("e"):
        f.add(w[:-1] + "ing")
    if w.endswith("s"):
        f.add(w[:-1])
    if w.endswith("es"):
        f.add(w[:-2])
    if w.endswith("ies"):
        f.add(w[:-3] + "y")
    return f


def word_regex(w):
    alts = "|".join(re.escape(x) for x in sorted(forms(w), key=len, reverse=True))
    return re.compile(r"(?<![a-z0-9])(?:" + alts + r")(?![a-z0-9])")


def haystack_hits(item, word):
    """Return list of (session_id, turn_index, role, snippet) where word occurs."""
    rx = word_regex(word)
    hits = []
    for sid, sess in zip(item["haystack_session_ids"], item["haystack_sessions"]):
        for i, turn in enumerate(sess):
            text = turn["content"].lower()
            m = rx.search(text)
            if m:
                a = max(0, m.start() - 40)
                hits.append((sid, i, turn["role"], text[a:m.end() + 40].replace("\n", " ")))
    return hits


def seeded_splits(items):
    """One variant of each base 'tune', the other 'test', by a seeded coin per base."""
    by_base = {}
    for idx, it in enumerate(items):
        by_base.setdefault(it["base"], []).append(idx)
    splits = {}
    for base, idxs in by_base.items():
        order = list(idxs)
        random.Random(SEED + ":" + base).shuffle(order)
        for k, idx in enumerate(order):
            splits[idx] = "tune" if k % 2 == 0 else "test"
    return splits


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if not args:
        print(__doc__)
        return 2
    dev_path = args[0]
    here = os.path.dirname(os.path.abspath(__file__))
    vpath = os.path.join(here, "longmemeval-variants.json")
    if "--variants" in argv:
        vpath = argv[argv.index("--variants") + 1]
        args = [a for a in args if a != vpath]
    dev = {x["question_id"]: x for x in json.load(open(dev_path, encoding="utf-8"))}
    doc = json.load(open(vpath, encoding="utf-8"))
    items = doc["items"]

    if "--assign-splits" in argv:
        sp = seeded_splits(items)
        for idx, it in enumerate(items):
            it["split"] = sp[idx]
        with open(vpath, "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False, indent=2)
            f.write("\n")

    errors = []
    if not isinstance(doc.get("about"), str) or not doc["about"].strip():
        errors.append("missing 'about'")
    expected_splits = seeded_splits(items)
    seen_q = set()
    count = {}
    for idx, it in enumerate(items):
        tag = f"item {idx} ({it.get('base')}: {it.get('question')!r})"
        keys = set(it)
        if keys != {"base", "question", "changed", "kind", "split"}:
            errors.append(f"{tag}: keys {sorted(keys)}")
            continue
        base = dev.get(it["base"])
        if base is None:
            errors.append(f"{tag}: unknown base id")
            continue
        if it["base"].endswith("_abs") or base["question_type"] in SKIP_TYPES:
            errors.append(f"{tag}: base is not an eligible answerable question")
        count[it["base"]] = count.get(it["base"], 0) + 1
        if it["kind"] not in KINDS:
            errors.append(f"{tag}: bad kind {it['kind']!r}")
        if it["question"] in seen_q:
            errors.append(f"{tag}: duplicate question")
        seen_q.add(it["question"])
        parts = it["changed"].split(" -> ")
        if len(parts) != 2:
            errors.append(f"{tag}: 'changed' must be 'OLD -> NEW'")
            continue
        old, new = parts
        bq = base["question"]
        if old not in bq:
            errors.append(f"{tag}: OLD {old!r} not in base question {bq!r}")
        elif it["question"] not in (bq.replace(old, new), bq.replace(old, new, 1)):
            errors.append(f"{tag}: variant is not the base question with {old!r} -> {new!r}"
                          f" (expected {bq.replace(old, new)!r})")
        words = new_words(old, new)
        if not words:
            errors.append(f"{tag}: no new content word in {new!r}")
        for w in words:
            hits = haystack_hits(base, w)
            if hits:
                sid, ti, role, snip = hits[0]
                errors.append(f"{tag}: new word {w!r} occurs {len(hits)}x in haystack,"
                              f" e.g. {sid} turn {ti} ({role}): ...{snip}...")
        if it["split"] != expected_splits[idx]:
            errors.append(f"{tag}: split {it['split']!r} != seeded {expected_splits[idx]!r}")

    for qid, x in dev.items():
        if qid.endswith("_abs") or x["question_type"] in SKIP_TYPES:
            continue
        if count.get(qid, 0) != 2:
            errors.append(f"base {qid}: {count.get(qid, 0)} variants (want 2)")

    if errors:
        for e in errors:
            print("FAIL", e)
        print(f"{len(errors)} problem(s) in {len(items)} items")
        return 1
    kinds = {}
    spl = {}
    for it in items:
        kinds[it["kind"]] = kinds.get(it["kind"], 0) + 1
        spl[it["split"]] = spl.get(it["split"], 0) + 1
    print(f"OK: {len(items)} variants of {len(count)} base questions; splits {spl}; kinds {kinds}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
