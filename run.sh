#!/usr/bin/env bash
# Installs what is missing, builds keydecide (Release) and starts the interactive demo on
# the bundled English model. Extra arguments go to `keydecide type`.

set -euo pipefail
cd "$(dirname "$0")"

scripts/install-deps.sh build
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)"
exec build/bin/keydecide type "$@"
