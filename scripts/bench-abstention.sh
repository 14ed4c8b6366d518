#!/usr/bin/env bash
# The abstention benchmark (outside CI: about an hour with a cold embedding cache): LongMemEval-S
# dev, then the held-out sets of tests/data/abstention (variants, personal stores and general
# requests, each split in tune and test), each asked of the chosen systems in one run of `minne eval longmemeval`.
# Prints one table: per file and system, the share of unanswerable questions left empty
# (abstain_rate) and of answerable ones answered (answered_rate).
#
# Usage: bash scripts/bench-abstention.sh OUT_DIR [SYSTEMS]
#        SYSTEMS: comma-separated (default minne,dense); see `minne eval longmemeval --help`.
# Env:   MINNE_BIN (default $CARGO_TARGET_DIR/debug/minne, built by the test command)
#        MINNE_EVAL_EMBED_CACHE (default OUT_DIR/embed-cache.sqlite: a rerun embeds nothing twice)
#        SPLITS (default "tune test"), DATA (default ../shared/data)
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:?usage: bash scripts/bench-abstention.sh OUT_DIR [SYSTEMS]}"
systems="${2:-minne,dense}"
target="${CARGO_TARGET_DIR:-$HOME/.cache/minne-target}"
bin="${MINNE_BIN:-$target/debug/minne}"
data="${DATA:-../shared/data}"
dev="$data/longmemeval/longmemeval-s-dev.json"
[[ -x "$bin" ]] || { echo "no minne binary at $bin: run the test command first, or set MINNE_BIN" >&2; exit 1; }
[[ -f "$dev" ]] || { echo "no LongMemEval-S dev file at $dev: set DATA to the shared data folder" >&2; exit 1; }
mkdir -p "$out"
export MINNE_EVAL_EMBED_CACHE="${MINNE_EVAL_EMBED_CACHE:-$out/embed-cache.sqlite}"

files=("$dev")
for split in ${SPLITS:-tune test}; do
  python3 tests/data/abstention/eval_files.py "$dev" "$out" --split "$split" >&2
  python3 tests/data/abstention/general_requests.py build "$out" --split "$split" >&2
  files+=("$out/variants-$split.json" "$out/personal-$split.json" "$out/general-$split.json")
done
for f in "${files[@]}"; do
  name="$(basename "$f" .json)"
  echo "==> $name ($systems)" >&2
  "$bin" eval longmemeval "$f" --systems "$systems" --json >"$out/$name.report.json"
done

python3 - "$out" "${files[@]}" <<'EOF'
import json, os, sys
out, files = sys.argv[1], sys.argv[2:]
print("| file | system | unanswerable empty | answerable answered |")
print("|---|---|---|---|")
for f in files:
    name = os.path.basename(f)[: -len(".json")]
    report = json.load(open(os.path.join(out, name + ".report.json")))
    for system, m in report["systems"].items():
        print(f"| {name} | {system} | {m.get('abstain_rate', float('nan')):.3f} "
              f"| {m.get('answered_rate', float('nan')):.3f} |")
EOF
