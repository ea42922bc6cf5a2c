#!/usr/bin/env bash
# Fetch the English teacher of /work/shared/DATA.md ("English teacher"): Debian's
# pocketsphinx-en-us, whose en-us.lm.bin is a US-English word trigram (sphinxbase's binary
# trie format), and write it as an ARPA file with its licence beside it:
#   data/en/teacher/en-us.arpa                       (tools/teachers/sphinx_lm_dump.c)
#   data/en/teacher/pocketsphinx-en-us.copyright     (the package's copyright file)
#
# Idempotent, in the style of scripts/fetch-data.sh: the package is downloaded and unpacked
# once under data/raw/deb (`apt-get download` + `dpkg -x`, a ".done" marker); the ARPA file is
# written only if missing (a temporary name, renamed when complete); delete it to redo it.
# The only system install: libsphinxbase-dev (the reader the dumper links), if missing.
# Bookworm's `sphinx_lm_convert -ofmt arpa` aborts on this file, hence the dumper.
# Needs: apt-get, dpkg, gcc, pkg-config.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RAW="$ROOT/data/raw"
OUT="$ROOT/data/en/teacher"
PKG=pocketsphinx-en-us
LM_BIN="$RAW/deb/$PKG/usr/share/pocketsphinx/model/en-us/en-us.lm.bin"
COPYRIGHT="$RAW/deb/$PKG/usr/share/doc/$PKG/copyright"
ARPA="$OUT/en-us.arpa"

start=$(date +%s)
apt_updated=0

apt_update_once() {
  if [[ $apt_updated -eq 0 ]]; then
    apt-get update -q >/dev/null
    apt_updated=1
  fi
}

fetch_deb() {
  local pkg="$1" dir="$RAW/deb/$1"
  if [[ -f "$dir/.done" ]]; then
    echo "deb  $pkg: present"
    return
  fi
  mkdir -p "$RAW/deb"
  rm -f "$RAW/deb/${pkg}"_*.deb
  # apt-get download writes into the current directory. Package lists may be missing or
  # stale (a point release replaced the .deb); only then is apt-get update worth its time.
  if ! (cd "$RAW/deb" && apt-get download -q "$pkg" >/dev/null 2>&1); then
    echo "deb  $pkg: download failed, running apt-get update and retrying"
    apt_update_once
    (cd "$RAW/deb" && apt-get download -q "$pkg" >/dev/null)
  fi
  local deb
  deb=$(ls "$RAW/deb/${pkg}"_*.deb | head -n 1)
  rm -rf "$dir"
  dpkg -x "$deb" "$dir"
  touch "$dir/.done"
  echo "deb  $pkg: fetched $(basename "$deb") ($(du -sh "$dir" | cut -f1) extracted)"
}

# Installs a Debian package if missing, quietly (as scripts/install-deps.sh does).
ensure_installed() {
  local pkg="$1"
  if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    return
  fi
  echo "installing $pkg"
  local sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  apt_updated=1
  $sudo apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null
}

fetch_deb "$PKG"
[[ -f "$LM_BIN" ]] || { echo "fetch-teacher-en.sh: $LM_BIN missing from the package" >&2; exit 1; }

mkdir -p "$OUT"
cp "$COPYRIGHT" "$OUT/$PKG.copyright"
echo "licence: $OUT/$PKG.copyright"

if [[ -f "$ARPA" ]]; then
  echo "arpa: present ($ARPA, $(du -h "$ARPA" | cut -f1))"
else
  ensure_installed gcc
  ensure_installed pkg-config
  ensure_installed libsphinxbase-dev
  # The dumper is built outside the source tree, in a temporary folder.
  build=$(mktemp -d)
  trap 'rm -rf "$build"' EXIT
  # shellcheck disable=SC2046  # pkg-config's flags are meant to split
  gcc -O2 -Wall -o "$build/sphinx_lm_dump" "$ROOT/tools/teachers/sphinx_lm_dump.c" \
    $(pkg-config --cflags --libs sphinxbase) -lm
  echo "arpa: converting $(basename "$LM_BIN") (about half a minute) ..."
  tmp="$ARPA.tmp.$$"
  # --check scores every n-gram written through libsphinxbase's own lookup.
  if ! "$build/sphinx_lm_dump" --check --out "$tmp" "$LM_BIN"; then
    rm -f "$tmp"
    echo "fetch-teacher-en.sh: the conversion failed" >&2
    exit 1
  fi
  mv "$tmp" "$ARPA"
  echo "arpa: wrote $ARPA ($(du -h "$ARPA" | cut -f1))"
fi
grep '^ngram ' "$ARPA" | sed 's/^/  /'

echo
echo "fetch-teacher-en.sh: done in $(( $(date +%s) - start )) s"
