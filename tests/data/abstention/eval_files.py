#!/usr/bin/env python3
"""Write the held-out abstention sets as LongMemEval files, so `minne eval longmemeval` scores them.

Usage:
    python3 eval_files.py LONGMEMEVAL_DEV OUT_DIR [--split tune|test]

Writes, for the chosen split (default: test):
  * OUT_DIR/variants-SPLIT.json: every answerable base question of the variants file, unchanged,
    plus each variant of the split as an unanswerable item (`<base>-<n>_abs`) over its base
    item's haystack. The eval's `abstain_rate` is then the share of variants left empty and
    `answered_rate` the share of base questions answered.
  * OUT_DIR/personal-SPLIT.json: the personal stores' items of the split.
Standard library only.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    split = "test"
    if "--split" in argv:
        split = argv[argv.index("--split") + 1]
        args = [a for a in args if a != split]
    if len(args) != 2 or split not in ("tune", "test"):
        sys.exit(__doc__)
    dev_path, out_dir = args
    os.makedirs(out_dir, exist_ok=True)
    dev = {item["question_id"]: item for item in json.load(open(dev_path))}
    variants = json.load(open(os.path.join(HERE, "longmemeval-variants.json")))["items"]
    out, bases, seen = [], [], {}
    for v in variants:
        base = dev[v["base"]]
        if v["base"] not in seen:
            seen[v["base"]] = 0
            bases.append(base)
        if v["split"] != split:
            continue
        seen[v["base"]] += 1
        item = dict(base)
        item["question_id"] = f"{v['base']}-{seen[v['base']]}_abs"
        item["question"] = v["question"]
        item["answer"] = "(unanswerable: " + v["changed"] + ")"
        item["answer_session_ids"] = []
        out.append(item)
    with open(os.path.join(out_dir, f"variants-{split}.json"), "w") as f:
        json.dump(bases + out, f)
    personal = json.load(open(os.path.join(HERE, "personal-stores.json")))
    with open(os.path.join(out_dir, f"personal-{split}.json"), "w") as f:
        json.dump([p for p in personal if p["split"] == split], f)
    print(f"{len(bases)} answerable + {len(out)} variants; "
          f"{sum(p['split'] == split for p in personal)} personal items ({split})")


if __name__ == "__main__":
    main(sys.argv[1:])
