#!/usr/bin/env bash
# Fuzzes the import parsers (issue 6, "Bad input") and the MCP request stream (issue 30): each
# cargo-fuzz target in fuzz/ runs for a fixed number of executions on inputs it mutates from
# the committed corpus (fuzz/corpus/<target>, minimised) and seed files. A crash stops the
# script, leaves the input under fuzz/artifacts/<target>/ and prints how to replay it.
#
# Usage: bash scripts/fuzz.sh [--runs N] [--target NAME]... [--minimise]
#   --runs N      executions per target (default 1000000; scripts/test.sh passes 20000)
#   --target NAME only this target (repeatable); default: every target in fuzz/Cargo.toml
#   --minimise    afterwards, merge what the run found into fuzz/corpus/<target>, keeping the
#                 smallest set of inputs with the same coverage (commit it after a long run)
# Env:   CARGO_TARGET_DIR (default ~/.cache/minne-target), FUZZ_MAX_SECONDS (a time cap per
#        target, default 1800), FUZZ_TOOLCHAIN (default: the pinned toolchain; see below)
#
# Toolchain: without a sanitizer (`-s none`) cargo-fuzz passes only stable -C flags (the
# sancov coverage pass), so the pinned stable toolchain builds the targets; the engine has no
# unsafe code, and a panic or overflow still aborts. Set FUZZ_TOOLCHAIN=nightly to use an
# installed nightly with AddressSanitizer instead (skipped, with a message, when absent).
set -euo pipefail
cd "$(dirname "$0")/.."

runs=1000000
targets=()
minimise=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
    --target) targets+=("${2:?--target needs a name}"); shift 2 ;;
    --minimise) minimise=1; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(sed -n 's/^name = "\(import_[a-z_]*\|mcp_[a-z_]*\)"$/\1/p' fuzz/Cargo.toml)
fi

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/minne-target}"
mkdir -p "$CARGO_TARGET_DIR"
CARGO_TARGET_DIR="$(cd "$CARGO_TARGET_DIR" && pwd)" # the build runs in fuzz/
max_seconds="${FUZZ_MAX_SECONDS:-1800}"

# cargo-fuzz from crates.io, installed once (a pinned version, so every machine fuzzes alike).
fuzz_version=0.13.2
if ! cargo fuzz --version 2>/dev/null | grep -q "$fuzz_version"; then
  echo "fuzz.sh: installing cargo-fuzz $fuzz_version"
  cargo install cargo-fuzz --locked --version "$fuzz_version"
fi

if [ -n "${FUZZ_TOOLCHAIN:-}" ]; then
  if ! rustup toolchain list | grep -q "^${FUZZ_TOOLCHAIN}"; then
    echo "fuzz.sh: skipped: FUZZ_TOOLCHAIN=${FUZZ_TOOLCHAIN} is not installed (rustup toolchain list)" >&2
    exit 0
  fi
  fuzz=(cargo "+${FUZZ_TOOLCHAIN}" fuzz)
  sanitizer=address
else
  fuzz=(cargo fuzz)
  sanitizer=none
fi

# Seeds: tiny hand-written files (fuzz/seeds), plus small slices of the real exports in
# ../shared/data when that folder is there. They go to fuzz/work/<target> (ignored by git),
# where a run also writes what it finds, so longer runs build on earlier ones; the committed,
# minimised corpus in fuzz/corpus/<target> is read, never written, except by --minimise.
python3 - <<'PY'
import json, os, shutil

def put(target, name, value):
    d = os.path.join("fuzz/work", target)
    os.makedirs(d, exist_ok=True)
    text = value if isinstance(value, str) else json.dumps(value)
    with open(os.path.join(d, "seed-" + name), "w", encoding="utf-8") as f:
        f.write(text)

for fmt in os.listdir("fuzz/seeds"):
    for name in os.listdir(os.path.join("fuzz/seeds", fmt)):
        text = open(os.path.join("fuzz/seeds", fmt, name), encoding="utf-8").read()
        put("import_" + fmt, name, text)
        put("import_auto", fmt + "-" + name, text)

shared = "../shared/data"
def load(rel):
    p = os.path.join(shared, rel)
    return json.load(open(p, encoding="utf-8")) if os.path.exists(p) else None

def chatgpt_slice(conv, keep):
    """The first `keep` nodes of the current branch, with current_node at the last."""
    m, path, node = conv["mapping"], [], conv.get("current_node")
    while node in m and node not in path:
        path.append(node)
        node = m[node].get("parent")
    path = list(reversed(path))[:keep]
    out = dict(conv)
    out["mapping"] = {k: m[k] for k in path}
    if path:
        out["current_node"] = path[-1]
        out["mapping"][path[-1]] = dict(m[path[-1]], children=[])
    return out

for name in ("chatgpt-real-export.json", "chatgpt-branching.json"):
    data = load("exports/" + name)
    if data:
        s = [chatgpt_slice(data[0], 8)]
        put("import_chatgpt", "shared-" + name, s)
        put("import_auto", "shared-" + name, s)
claude = load("exports/claude-sample.json")
if claude:
    s = [dict(c, chat_messages=c["chat_messages"][:2]) for c in claude[:2]]
    put("import_claude", "shared-claude.json", s)
    put("import_auto", "shared-claude.json", s)
locomo = load("locomo/locomo-dev.json")
if locomo:
    c = locomo[0]["conversation"]
    conv = {k: c[k] for k in ("speaker_a", "speaker_b", "session_1_date_time")}
    conv["session_1"] = [{k: t[k] for k in t if k != "img_url"} for t in c["session_1"][:3]]
    s = [{"sample_id": locomo[0]["sample_id"], "conversation": conv}]
    put("import_locomo", "shared-locomo.json", s)
    put("import_auto", "shared-locomo.json", s)
PY

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1000 }'; }

echo "==> fuzz build (all targets, sanitizer: $sanitizer)"
started=$(now_ms)
(cd fuzz && "${fuzz[@]}" build -s "$sanitizer")
echo "fuzz.sh: build took $(secs "$started" "$(now_ms)") s"
host=$(rustc -vV | sed -n 's/^host: //p')
bin_dir="$CARGO_TARGET_DIR/$host/release"

summary=()
for target in "${targets[@]}"; do
  echo "==> fuzz $target: $runs runs (sanitizer: $sanitizer)"
  log="$(mktemp)"
  started=$(now_ms)
  # The JSON dictionary helps the text parsers; the MCP target reads structured bytes.
  dict=()
  case "$target" in import_*) dict=(-dict=json.dict) ;; esac
  mkdir -p "fuzz/artifacts/$target" "fuzz/work/$target" "fuzz/corpus/$target"
  # The binary the build above made, run directly: `cargo fuzz run` would build again first.
  if ! (cd fuzz && "$bin_dir/$target" -artifact_prefix="artifacts/$target/" \
      -runs="$runs" -max_total_time="$max_seconds" -max_len=8192 -timeout=10 \
      -rss_limit_mb=2048 "${dict[@]}" -print_final_stats=1 "work/$target" "corpus/$target") \
      >"$log" 2>&1; then
    tail -n 40 "$log"
    echo "fuzz.sh: $target CRASHED: the input is under fuzz/artifacts/$target/;" \
      "replay it with: (cd fuzz && cargo fuzz run -s $sanitizer $target artifacts/$target/<file>)," \
      "fix the parser and add the input as a regression test" >&2
    rm -f "$log"
    exit 1
  fi
  seconds=$(secs "$started" "$(now_ms)")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(grep -ao 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
  rm -f "$log"
  units=$(find "fuzz/work/$target" "fuzz/corpus/$target" -type f | wc -l)
  if [ "$minimise" = 1 ]; then
    # Merged into a fresh folder first: the committed corpus is replaced only by a merge that
    # finished and kept something, never lost to a failed one.
    merged="fuzz/corpus/$target.merged"
    rm -rf "$merged" && mkdir -p "$merged"
    if (cd fuzz && "$bin_dir/$target" -merge=1 -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
        "${merged#fuzz/}" "work/$target" "corpus/$target") >/dev/null 2>&1 \
        && [ -n "$(ls -A "$merged")" ]; then
      rm -rf "fuzz/corpus/$target" && mv "$merged" "fuzz/corpus/$target"
      units="$(find "fuzz/corpus/$target" -type f | wc -l) minimised"
    else
      rm -rf "$merged"
      echo "fuzz.sh: $target: the merge failed; fuzz/corpus/$target is left as it was" >&2
    fi
  fi
  rm -rf "${TMPDIR:-/tmp}"/minne-fuzz-mcp-* # the MCP target's scratch stores
  summary+=("$(printf '%-18s %9s runs  cov %5s  %8s s  corpus %s' "$target" "${execs:-?}" \
    "${cov:-?}" "$seconds" "$units")")
done
echo "==> fuzz summary: no crashes"
printf '%s\n' "${summary[@]}"
