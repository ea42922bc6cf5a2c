#!/usr/bin/env bash
# Installs what is missing, builds keydecide (Release with warnings as errors, and a
# Debug build with AddressSanitizer + UndefinedBehaviorSanitizer) and runs every test:
# GoogleTest suites, CLI tests, the installed SDK, the Python module and the fcitx5 input method
# (headless, and in a GTK3 entry under Xvfb) through ctest in both builds, the threaded runtime and
# service tests under ThreadSanitizer, brief libFuzzer runs of every fuzzer (fuzz/: protocol,
# pinyin searches, text layer, layouts, lexicon, bigram, teacher n-gram, weight file, user store
# export, C ABI call sequences, the language server's messages), the Debian packages installed on
# a clean root, then the training package's Python tests.

set -euo pipefail
cd "$(dirname "$0")"

scripts/install-deps.sh test

JOBS=$(nproc 2>/dev/null || echo 2)

# When each stage began, printed as the script ends (passed or not): where CI's time goes.
STAGES=()
stage() {
  STAGES+=("$(printf '%5ds  %s' "$SECONDS" "$1")")
  echo "== $1"
}
trap 'printf "test.sh: stages began at (seconds since start)\n"; printf "  %s\n" "${STAGES[@]}"; echo "  total ${SECONDS}s"' EXIT

stage "Release build"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DKEYDECIDE_WERROR=ON >/dev/null
cmake --build build -j"$JOBS"
stage "Release tests"
(cd build && ctest --output-on-failure -j"$JOBS")

# The kernel tests cover every target by themselves; the model tests run once more on each
# SIMD target this CPU supports (KEYDECIDE_SIMD forces one; Engine::Open refuses others).
for target in avx3 avxvnni avx2 sse4 scalar; do
  if KEYDECIDE_SIMD=$target build/bin/keydecide info --model none >/dev/null 2>&1; then
    echo "== Model tests with KEYDECIDE_SIMD=$target"
    (cd build && KEYDECIDE_SIMD=$target ctest --output-on-failure -j"$JOBS" \
      -R "Transformer|model_parity|Quantize|ModelSession|Allocation")
  fi
done

stage "Arm (aarch64) under qemu"
# Cross-built with Debian's g++-aarch64-linux-gnu against the :arm64 dev packages
# (cmake/aarch64-linux-gnu.cmake) and run, not only compiled, under qemu-user; -cpu max
# emulates dotprod, i8mm, SVE and SVE2. kernels_test runs every kernel against its reference
# on each Arm target and int8 flavour by itself (under qemu: sve2, sve, neon_i8mm,
# neon_dotprod, neon); the model, PyTorch parity and allocation tests run once per flavour
# (KEYDECIDE_SIMD) and once unforced ("best": SVE2 with the i8mm kernels). A dotprod CPU
# without SVE or i8mm (-cpu neoverse-n1, as most phones) checks the detection and the
# default choice. qemu's timings are not speed figures.
ARM_TESTS=(kernels_test transformer_test quantize_test model_session_test allocation_test
           model_parity_test)
cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
  -DCMAKE_BUILD_TYPE=Release -DKEYDECIDE_WERROR=ON >/dev/null
cmake --build build-arm64 -j"$JOBS" --target "${ARM_TESTS[@]}"
arm64() { qemu-aarch64-static -cpu "$1" -L /usr/aarch64-linux-gnu "${@:2}"; }
arm64 max build-arm64/bin/kernels_test --gtest_brief=1
arm64 neoverse-n1 build-arm64/bin/kernels_test --gtest_brief=1 --gtest_filter='TargetsTest.*:*Q8*'
arm_targets=$(arm64 max build-arm64/bin/kernels_test --gtest_list_tests |
  sed -n 's/.*GetParam() = "\(.*\)"$/\1/p' | awk '!seen[$0]++')
[[ -n "$arm_targets" ]] || { echo "test.sh: no Arm targets listed" >&2; exit 1; }
for target in best $arm_targets; do
  echo "-- Arm model tests with KEYDECIDE_SIMD=$target"
  for t in "${ARM_TESTS[@]:1}"; do
    KEYDECIDE_SIMD=$target KD_PARITY_DIR="$PWD/build/tests/parity" \
      arm64 max build-arm64/bin/$t --gtest_brief=1
  done
done

stage "ASan/UBSan build"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DKEYDECIDE_SANITIZE=ON -DKEYDECIDE_WERROR=ON >/dev/null
cmake --build build-asan -j"$JOBS"
stage "ASan/UBSan tests"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j"$JOBS")

stage "ThreadSanitizer: runtime, service, C ABI and learning (src/personal) tests"
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKEYDECIDE_WERROR=ON \
  -DCMAKE_CXX_FLAGS="-fsanitize=thread" -DCMAKE_C_FLAGS="-fsanitize=thread" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" >/dev/null
TSAN_TESTS=(runtime_worker_test service_server_test c_api_test learner_test personal_session_test
            fine_tune_test)
cmake --build build-tsan -j"$JOBS" --target "${TSAN_TESTS[@]}"
for t in "${TSAN_TESTS[@]}"; do
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 build-tsan/bin/$t --gtest_brief=1
done

stage "libFuzzer: every format and surface, briefly (docs/FUZZING.md)"
# The protocol parser 30 s, the pinyin searches 20 s, the text layer, keyboard layouts,
# lexicon, word bigram, teacher n-gram, weight file and C ABI call sequences 15 s each, the user
# store's export format and import, the fine-tuning adapter, the known-words filter, the popup
# network and the intent n-grams 10 s each, from the committed seeds;
# the same runner fuzzes for hours with scripts/fuzz-long.sh.
scripts/fuzz-long.sh --build build-fuzz --fresh-corpus protocol:30 pinyin:20 text:15 layout:15 ngram:15 \
  lexicon:15 bigram:15 weight:15 personal:10 import:10 adapter:10 wordset:10 popup:10 \
  intent_ngrams:10 ls:10 \
  capi:15

stage "Debian packages, installed on a clean bookworm root"
# The seven packages (scripts/build-debs.sh: a tree configured with the prefix /usr), installed by
# apt with their dependencies into a fresh root and typed with there (scripts/test-debs.sh).
scripts/build-debs.sh build-deb/debs
scripts/test-debs.sh build-deb/debs build/bin/fcitx5_typing_test

if compgen -G "training/tests/test_*.py" >/dev/null; then
  stage "Python tests"
  /usr/bin/python3 -m pytest -q training/tests
fi

echo "test.sh: all tests passed"
