#!/usr/bin/env bash
# Installs what the desktop app and its tests need on Debian 12 (bookworm): the WebKitGTK
# toolchain Tauri 2 builds against, a virtual X server for headless runs, the WebKit WebDriver
# and tauri-driver for the end-to-end test. Idempotent, and quick when all is installed:
# apt is only touched when a package is missing, cargo only when tauri-driver is.
#
# Usage: bash scripts/setup-system.sh        (as root, or with sudo available)
set -euo pipefail

# Debian package names, see shared/RECIPES.md "Desktop: Tauri 2 on Debian 12".
APT_PACKAGES=(
  libwebkit2gtk-4.1-dev # WebKitGTK 4.1 + GTK 3 + libsoup 3 headers: what wry links against
  build-essential       # cc, make: build scripts of -sys crates
  pkg-config            # how the -sys crates find the GTK/WebKit libraries
  libssl-dev            # openssl-sys: the e2e test's WebDriver client (fantoccini, native-tls)
  xvfb                  # virtual X server: the app and its tests run without a screen
  xauth                 # xvfb-run needs it
  webkit2gtk-driver     # WebKitWebDriver, the native driver behind tauri-driver
  ca-certificates       # cargo install over https
)
TAURI_DRIVER_VERSION="2.1.0" # crates.io also serves 3.0 alphas: pin the 2.x driver

SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  SUDO="sudo"
fi

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  # dpkg-query prints "install ok installed" only for a fully installed package.
  if [[ $(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null) != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} > 0)); then
  echo "setup-system: installing ${missing[*]}"
  $SUDO apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${missing[@]}"
else
  echo "setup-system: system packages present"
fi

if ! command -v cargo >/dev/null 2>&1; then
  if [[ -x "$HOME/.cargo/bin/cargo" ]]; then
    export PATH="$HOME/.cargo/bin:$PATH"
  else
    echo "setup-system: cargo not found: install Rust with rustup first (https://rustup.rs)" >&2
    exit 1
  fi
fi

driver_version() {
  # `tauri-driver --version` is not implemented in 2.x; ask cargo what it installed.
  cargo install --list 2>/dev/null | sed -n 's/^tauri-driver v\([^:]*\):$/\1/p'
}

if [[ $(driver_version) == "$TAURI_DRIVER_VERSION" ]] && command -v tauri-driver >/dev/null 2>&1; then
  echo "setup-system: tauri-driver $TAURI_DRIVER_VERSION present"
else
  echo "setup-system: installing tauri-driver $TAURI_DRIVER_VERSION"
  # Outside the project directory so rust-toolchain.toml does not pick the toolchain.
  (cd / && cargo install tauri-driver --locked --version "$TAURI_DRIVER_VERSION")
fi

for bin in Xvfb xauth WebKitWebDriver tauri-driver pkg-config; do
  if ! command -v "$bin" >/dev/null 2>&1; then
    echo "setup-system: $bin is still missing after the install" >&2
    exit 1
  fi
done
pkg-config --exists webkit2gtk-4.1 javascriptcoregtk-4.1 libsoup-3.0 || {
  echo "setup-system: pkg-config cannot find webkit2gtk-4.1" >&2
  exit 1
}
echo "setup-system: ready"

# The keyring test (cli/tests/keyring.rs) runs the real Secret Service: it starts a private
# D-Bus session bus and an unlocked gnome-keyring-daemon on it, then the real `minne` binary.
# Nothing here starts a daemon; the test does, for itself only. Idempotent like the above.
KEYRING_PACKAGES=(
  dbus-daemon     # dbus-daemon: the test's private session bus (--session --fork)
  gnome-keyring   # gnome-keyring-daemon: the Secret Service the `keyring` crate talks to
  libsecret-tools # secret-tool: the test reads the key entry back as a user would
)
missing=()
for pkg in "${KEYRING_PACKAGES[@]}"; do
  if [[ $(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null) != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done
if ((${#missing[@]} > 0)); then
  echo "setup-system: installing ${missing[*]} (keyring test)"
  $SUDO apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${missing[@]}"
else
  echo "setup-system: keyring test packages present"
fi
for bin in dbus-daemon gnome-keyring-daemon secret-tool; do
  if ! command -v "$bin" >/dev/null 2>&1; then
    echo "setup-system: $bin is still missing after the install" >&2
    exit 1
  fi
done
echo "setup-system: keyring test ready"
