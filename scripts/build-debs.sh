#!/usr/bin/env bash
# Builds the Debian packages (libkeydecide1, libkeydecide-dev, keydecide, keydecide-data,
# fcitx5-keydecide, ibus-keydecide, keydecide-ls) into OUT (default: build-deb/debs): a Release
# tree configured with the prefix /usr (so the library and the fcitx5 addon land in Debian's
# multiarch folders), then CPack.
#   scripts/build-debs.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-build-deb/debs}
scripts/install-deps.sh build
cmake -S . -B build-deb -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
  -DKEYDECIDE_TESTS=OFF -DKEYDECIDE_WERROR=ON >/dev/null
cmake --build build-deb -j"$(nproc 2>/dev/null || echo 2)"
mkdir -p "$OUT"
(cd build-deb && cpack -G DEB -B "$PWD/cpack" >/dev/null)
cp build-deb/cpack/*.deb "$OUT"/
ls -l "$OUT"/*.deb
