#!/usr/bin/env bash
# The installed SDK, as a third-party project sees it (issue 17): `cmake --install` into an empty
# prefix gives the library, headers, pkg-config and CMake package files, the CLI, the daemon,
# man pages, completion, the Python module and the models. A C program built with pkg-config and
# a C++ program built with find_package(keydecide) type with the installed models, found by the
# library from its own location (no model folder named, no data folder holding models); so do
# they after the prefix is moved. The library exports only kd_* and the documented C++ API, and
# holds no path of the machine that built it.
# usage: sdk_install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
BUILD=$1 SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

PREFIX=$WORK/prefix
cmake --install "$BUILD" --prefix "$PREFIX" >"$WORK/install.log"
LIB=$(find "$PREFIX" -name 'libkeydecide.so.1' | head -1)
[[ -n $LIB ]] || fail "no libkeydecide.so.1 installed"
LIBDIR=$(dirname "$LIB")
for f in include/keydecide/keydecide.h include/keydecide/engine.h include/keydecide/export.h \
         share/keydecide/models/en/lexicon.kdlex share/keydecide/models/en/model.q8.safetensors \
         share/keydecide/models/en/README.md share/keydecide/models/zh/README.md \
         share/keydecide/models/zh/lexicon.kdbg share/keydecide/models/layouts/qwerty.txt \
         bin/keydecide bin/keydecided share/bash-completion/completions/keydecide \
         lib/python3/dist-packages/keydecide/__init__.py lib/systemd/user/keydecided.service; do
  [[ -e $PREFIX/$f ]] || fail "$f not installed"
done
[[ -e $LIBDIR/pkgconfig/keydecide.pc ]] || fail "keydecide.pc not installed"
[[ -e $LIBDIR/cmake/keydecide/keydecideConfig.cmake ]] || fail "keydecideConfig.cmake not installed"
[[ $(readlink "$LIBDIR/libkeydecide.so") == libkeydecide.so.1* ]] || fail "no libkeydecide.so link"
objdump -p "$LIB" | grep >/dev/null 'SONAME *libkeydecide.so.1$' || fail "SONAME is not libkeydecide.so.1"
if command -v help2man >/dev/null; then
  [[ -e $PREFIX/share/man/man1/keydecide.1 ]] || fail "no man page"
fi

# Exports: kd_* and names the installed headers declare, nothing else.
nm -D --defined-only "$LIB" | awk '{print $3}' | grep -v '^KEYDECIDE_1$' >"$WORK/symbols"
grep -v '^kd_' "$WORK/symbols" | c++filt | sed 's/(.*//' >"$WORK/cxx"
while read -r sym; do
  [[ $sym == keydecide::* ]] || fail "exported symbol outside the API: $sym"
  name=${sym#keydecide::}
  name=${name%%::*}
  name=${name%%\[*}
  grep -qE "(class|struct) KD_API $name\\b|KD_API .*\\b$name\\(" "$PREFIX"/include/keydecide/*.h ||
    fail "exported $sym is not declared KD_API in the installed headers"
done <"$WORK/cxx"
n_c=$(grep -c '^kd_' "$WORK/symbols")
n_h=$(grep -cE '^KD_API [a-z0-9_ ]*\*? ?kd_[a-z_]*\(' "$PREFIX/include/keydecide/keydecide.h")
[[ $n_c == "$n_h" ]] || fail "$n_c kd_* exported, $n_h declared"
if strings "$LIB" | grep -qF "$SRC"; then fail "the library holds the build machine's $SRC"; fi

# A host without any model folder configured: the library finds the models beside itself.
export HOME=$WORK/home XDG_DATA_HOME=$WORK/home/data XDG_DATA_DIRS=$WORK/nothing-here
unset KEYDECIDE_MODEL_DIR || true
cat >"$WORK/consumer.c" <<'EOF'
#include <stdio.h>
#include <keydecide/keydecide.h>
int main(void) {
  kd_engine* e;
  if (kd_engine_open(NULL, &e) != KD_OK) { fprintf(stderr, "%s\n", kd_last_error()); return 1; }
  kd_session_params sp = kd_session_default_params();
  kd_session* s;
  kd_decision d;
  if (kd_session_open(e, &sp, &s) != KD_OK || kd_session_type(s, "see you tomo", &d) != KD_OK ||
      d.n_candidates < 1) { fprintf(stderr, "%s\n", kd_last_error()); return 1; }
  printf("%s\n", d.candidates[0].text);
  kd_session_free(s);
  kd_engine_free(e);
  return 0;
}
EOF
export PKG_CONFIG_PATH=$LIBDIR/pkgconfig
# shellcheck disable=SC2046  # pkg-config prints words
cc -std=c99 -Wall -Werror "$WORK/consumer.c" -o "$WORK/consumer" $(pkg-config --cflags --libs keydecide)
out=$(LD_LIBRARY_PATH=$LIBDIR "$WORK/consumer") || fail "pkg-config consumer: $out"
[[ $out == tomorrow ]] || fail "pkg-config consumer printed '$out'"

mkdir -p "$WORK/cmake-consumer"
cat >"$WORK/cmake-consumer/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(consumer CXX)
set(CMAKE_CXX_STANDARD 20)
find_package(keydecide 0.1 REQUIRED)
add_executable(consumer main.cc)
target_link_libraries(consumer PRIVATE keydecide::keydecide)
EOF
cat >"$WORK/cmake-consumer/main.cc" <<'EOF'
#include <iostream>
#include <keydecide/engine.h>
int main() {
  keydecide::EngineOptions options;
  options.language = "zh";
  std::unique_ptr<keydecide::Engine> engine;
  if (keydecide::Status s = keydecide::Engine::Open(options, &engine); !s.ok()) {
    std::cerr << s.ToString() << "\n";
    return 1;
  }
  auto session = engine->NewSession({});
  keydecide::Decision d;
  if (!session->Type("nihao").ok() || !session->Decide(3, &d).ok() || d.candidates.empty()) return 1;
  std::cout << d.candidates[0].text << "\n";
}
EOF
cmake -S "$WORK/cmake-consumer" -B "$WORK/cmake-consumer/build" -DCMAKE_PREFIX_PATH="$PREFIX" \
  >"$WORK/cmake.log" || { cat "$WORK/cmake.log"; fail "find_package(keydecide)"; }
cmake --build "$WORK/cmake-consumer/build" >"$WORK/cmake-build.log" ||
  { cat "$WORK/cmake-build.log"; fail "building against keydecide::keydecide"; }
out=$("$WORK/cmake-consumer/build/consumer") || fail "CMake consumer: $out"
[[ $out == 你好 ]] || fail "CMake consumer printed '$out'"

# The installed CLI and daemon find the same models; the Python module loads the library.
"$PREFIX/bin/keydecide" --version | grep >/dev/null '^keydecide [0-9]' || fail "keydecide --version"
"$PREFIX/bin/keydecided" --version | grep >/dev/null '^keydecided [0-9]' || fail "keydecided --version"
out=$("$PREFIX/bin/keydecide" predict --context "see you" --prefix tomo --json)
grep -q '"text": *"tomorrow"' <<<"$out" || fail "installed keydecide predict: $out"
out=$(PYTHONPATH=$PREFIX/lib/python3/dist-packages KEYDECIDE_LIBRARY=$LIB /usr/bin/python3 -c \
  'import keydecide; print(keydecide.Engine().session().type("see you tomo").candidates[0].text)')
[[ $out == tomorrow ]] || fail "installed Python module printed '$out'"

# Moved as a whole, it still finds its models (the search is relative to the library).
mv "$PREFIX" "$WORK/moved"
out=$(LD_LIBRARY_PATH=${LIBDIR/$PREFIX/$WORK/moved} "$WORK/consumer") || fail "moved: $out"
[[ $out == tomorrow ]] || fail "moved install printed '$out'"
"$WORK/moved/bin/keydecide" predict --prefix tomo >/dev/null || fail "moved CLI"

# Without any models, the error names the folders it looked in.
mkdir -p "$WORK/bare/lib"
cp -a "$WORK/moved/${LIBDIR#"$PREFIX"/}/libkeydecide.so"* "$WORK/bare/lib/"
if err=$(LD_LIBRARY_PATH=$WORK/bare/lib "$WORK/consumer" 2>&1); then fail "opened without models"; fi
grep -q "looked in" <<<"$err" || fail "error without models: $err"
echo "sdk_install_test: ok ($n_c C functions exported)"
