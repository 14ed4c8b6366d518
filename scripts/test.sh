#!/usr/bin/env bash
# The one test command (README): sets up a fresh Debian 12 machine and runs every check CI
# runs: formatting, clippy at deny, the unit and integration tests with the real model, the
# desktop end-to-end test in a real window under Xvfb, and the evaluation on a small slice.
#
# Usage: bash scripts/test.sh
# Env:   CARGO_TARGET_DIR (default ~/.cache/minne-target, outside the clone so runs reuse it)
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/minne-target}"
# The tests load ONNX Runtime through the library: its telemetry stays off there too.
export ORT_DISABLE_TELEMETRY="${ORT_DISABLE_TELEMETRY:-1}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
step() { printf '\n==> %s\n' "$*"; }

step "system packages (WebKitGTK, Xvfb, WebDriver)"
bash scripts/setup-system.sh
step "embedding model and ONNX Runtime"
bash scripts/setup-models.sh

step "rustfmt"
cargo fmt --all --check
step "clippy (warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "tests: engine, CLI, desktop end-to-end"
cargo test --workspace --locked --no-fail-fast
step "fuzz: import parsers and the MCP request stream, 20,000 runs per target"; bash scripts/fuzz.sh --runs 20000
