#!/usr/bin/env bash
# keydecide-ls under a real client: Neovim's built-in LSP client, headless (nvim_test.lua).
#   nvim_test.sh KEYDECIDE_LS MODELS_DIR WORK_DIR
# Exits 77 (ctest: skipped) when nvim is not installed.
set -euo pipefail
LS=$1 MODELS=$2 WORK=$3
if ! command -v nvim >/dev/null; then
  echo "SKIP: nvim is not installed (Debian: apt-get install neovim); the Neovim test did not run"
  exit 77
fi
rm -rf "$WORK"
mkdir -p "$WORK"
# Neovim's own files (its LSP log, shada) stay in the work folder.
export XDG_CACHE_HOME="$WORK/cache" XDG_STATE_HOME="$WORK/state" XDG_DATA_HOME="$WORK/data"
export XDG_CONFIG_HOME="$WORK/config" KD_LS="$LS" KD_WORK="$WORK" KEYDECIDE_MODEL_DIR="$MODELS"
echo "quokka zanzibar" >"$WORK/existing.md"
timeout 90 nvim --headless -u NONE -i NONE -n \
  -c "luafile $(cd "$(dirname "$0")" && pwd)/nvim_test.lua" </dev/null
# What the server learned (it flushes the store when it exits): the words typed and the
# completion taken, none of the file that was on disk.
/usr/bin/python3 - "$WORK/user.db" <<'PY'
import sqlite3, sys
words = {w for (w,) in sqlite3.connect(sys.argv[1]).execute("SELECT word FROM words")}
for typed in ("Plans", "see", "you", "tomorrow", "wombat"):
    assert typed in words, f"'{typed}' was typed but not learned: {sorted(words)}"
for opened in ("quokka", "zanzibar"):
    assert opened not in words, f"'{opened}' came from a file on disk but was learned"
print("ok: learned", sorted(words))
PY
echo "nvim_test: passed"
