#!/usr/bin/env bash
# Installs what is missing, builds keydecide (Release with warnings as errors, and a
# Debug build with AddressSanitizer + UndefinedBehaviorSanitizer) and runs every test:
# GoogleTest suites and CLI tests through ctest in both builds, then the Python tests.

set -euo pipefail
cd "$(dirname "$0")"

scripts/install-deps.sh test

JOBS=$(nproc 2>/dev/null || echo 2)

echo "== Release build"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DKEYDECIDE_WERROR=ON >/dev/null
cmake --build build -j"$JOBS"
(cd build && ctest --output-on-failure -j"$JOBS")

echo "== ASan/UBSan build"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DKEYDECIDE_SANITIZE=ON -DKEYDECIDE_WERROR=ON >/dev/null
cmake --build build-asan -j"$JOBS"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j"$JOBS")

if compgen -G "training/tests/test_*.py" >/dev/null; then
  echo "== Python tests"
  /usr/bin/python3 -m pytest -q training/tests
fi

echo "test.sh: all tests passed"
