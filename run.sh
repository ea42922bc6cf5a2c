#!/usr/bin/env bash
# Installs what is missing, builds keydecide (Release) and starts the interactive demo on
# the bundled English model. Extra arguments go to `keydecide type`.

set -euo pipefail
cd "$(dirname "$0")"

scripts/install-deps.sh build
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)"
# The repository's models, even where keydecide-data is installed (the search would find those).
export KEYDECIDE_MODEL_DIR=${KEYDECIDE_MODEL_DIR:-$PWD/models}
exec build/bin/keydecide type "$@"
