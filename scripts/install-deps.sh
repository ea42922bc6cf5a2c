#!/usr/bin/env bash
# Installs the Debian packages keydecide needs to build and test, skipping those already
# installed (so re-runs are fast and need no network). Sourced by run.sh and test.sh.
# Usage: scripts/install-deps.sh [build|test]

set -euo pipefail

BUILD_PACKAGES=(g++ cmake make pkg-config ccache zlib1g-dev nlohmann-json3-dev libcli11-dev
                libgtest-dev libgmock-dev libhwy-dev libutf8proc-dev libsqlite3-dev)
# The fcitx5 input method (frontends/fcitx5) and its headless test's addons (fcitx5-modules),
# and man pages from the programs' --help.
BUILD_PACKAGES+=(libfcitx5core-dev libfcitx5config-dev libfcitx5utils-dev fcitx5-modules-dev
                 help2man)
# The IBus engine (frontends/ibus).
BUILD_PACKAGES+=(libibus-1.0-dev)
# clang and its sanitizer runtimes (libFuzzer) build the protocol fuzzer.
# PyTorch (CPU, Debian's 1.13) runs the training tests and makes the C++ parity fixture.
TEST_PACKAGES=(clang libclang-rt-14-dev python3 python3-pytest python3-numpy python3-torch python3-tqdm python3-matplotlib)
# libime-bin: libime_slm_build_binary (KenLM's build_binary) writes the binaries the KenLM reader
# (training/keydecide_train/kenlm_arpa.py) is tested on.
TEST_PACKAGES+=(libime-bin)
# test.sh's Arm stage: the cross compiler, qemu-user to run what it builds, and the :arm64
# (multiarch) dev packages of what the kernel, model and allocation tests link.
TEST_PACKAGES+=(g++-aarch64-linux-gnu qemu-user-static libhwy-dev:arm64 libgtest-dev:arm64
                libgmock-dev:arm64 zlib1g-dev:arm64 libutf8proc-dev:arm64 libsqlite3-dev:arm64)

# The end-to-end typing test (tests/e2e/fcitx5_gtk.sh): a display server, fcitx5 with its GTK3
# module, a GTK3 entry (PyGObject), keys from xdotool, a session bus, screenshots.
TEST_PACKAGES+=(xvfb xdotool x11-utils imagemagick dbus-daemon dbus-bin fcitx5 fcitx5-frontend-gtk3
                python3-gi gir1.2-gtk-3.0 fonts-wqy-microhei)
# ... and of the IBus engine (tests/e2e/ibus_gtk.sh): ibus-daemon with its candidate window
# (ibus-ui-gtk3) and its GTK3 module; gsettings for ibus's settings.
TEST_PACKAGES+=(ibus ibus-gtk3 libglib2.0-bin)
# The Debian packages (cpack -G DEB: dpkg-shlibdeps, file) and scripts/test-debs.sh, which
# installs them into a clean bookworm root (mmdebstrap).
TEST_PACKAGES+=(dpkg-dev file mmdebstrap)
# The language server's test with a real client (frontends/ls/tests/nvim_test.sh): Neovim's
# built-in LSP client, headless (bookworm: 0.7.2).
TEST_PACKAGES+=(neovim)

want=("${BUILD_PACKAGES[@]}")
if [[ "${1:-build}" == "test" ]]; then
  want+=("${TEST_PACKAGES[@]}")
fi

missing=()
for pkg in "${want[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} > 0)); then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  if [[ " ${missing[*]}" == *":arm64"* ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $SUDO dpkg --add-architecture arm64
  fi
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
