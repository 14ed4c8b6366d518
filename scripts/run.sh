#!/usr/bin/env bash
# Sets up this machine (once; later runs are quick) and runs Minne: the desktop app where
# there is a display and no arguments, otherwise the `minne` command line with the arguments.
#
# Usage: bash scripts/run.sh                  the desktop app (needs a display)
#        bash scripts/run.sh recall "launch"  the CLI; with no display and no arguments: --help
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/minne-target}"
bash scripts/setup-models.sh >&2

if [[ $# -eq 0 && -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
  bash scripts/setup-system.sh >&2
  cargo build --release --locked -p minne-desktop >&2
  exec "$CARGO_TARGET_DIR/release/minne-desktop"
fi
cargo build --release --locked -p minne-cli >&2
if [[ $# -eq 0 ]]; then
  echo "No display found: here is the command line. Run it as: bash scripts/run.sh <command>" >&2
  exec "$CARGO_TARGET_DIR/release/minne" --help
fi
exec "$CARGO_TARGET_DIR/release/minne" "$@"
