#!/usr/bin/env bash
# Fetch the English DEVELOPMENT sources, whole sources held out of training (../shared/DATA.md:
# "the figures you choose by come from whole sources held out of training"), and write their
# text to data/dev-en/<source>.txt with data/dev-en/manifest.json
# (training/keydecide_train/dev_sources.py says what each is, its licence and why it is held out):
#
#   dink-dialogue      messages and chat    freedink-data                       zlib
#   pang-lee-reviews   reviews, opinions    python3-pattern                     see dev_sources.py
#   oanc-slate         modern prose         python3-pattern                     see dev_sources.py
#   sherlock-holmes    a novel              golang-github-bkaradzic-go-lz4-dev   public domain
#
# These packages are unpacked under data/raw-dev, apart from data/raw (fetch-data.sh,
# prepare_text.py), so that no training step picks them up; never add them to fetch-data.sh.
# Choices (weights, thresholds, which model ships) may be made on these texts; they are no
# substitute for the RESERVED texts (scripts/fetch-heldout-en.sh), read once after choosing.
#
# Usage: scripts/fetch-dev-en.sh   (idempotent: a package is downloaded and unpacked once, its
# ".done" marker says so; the text is written again each run. Needs apt-get, dpkg,
# /usr/bin/python3. Nothing is installed system-wide.)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RAW="$ROOT/data/raw-dev"
OUT="$ROOT/data/dev-en"
PYTHON=/usr/bin/python3

# package=version the texts and the md5s in docs were made from (bookworm).
DEB_PKGS=(
  freedink-data=1.08.20190120-2
  python3-pattern=2.6+git20180818-4
  golang-github-bkaradzic-go-lz4-dev=1.0.0-5
)

apt_updated=0
fetch_deb() {
  local pkg="${1%%=*}" want="${1#*=}" dir="$RAW/deb/${1%%=*}"
  if [[ -f "$dir/.done" ]]; then
    echo "deb  $pkg: present"
    return
  fi
  mkdir -p "$RAW/deb"
  rm -f "$RAW/deb/${pkg}"_*.deb
  if ! (cd "$RAW/deb" && apt-get download -q "$pkg" >/dev/null 2>&1); then
    if [[ $apt_updated -eq 0 ]]; then
      echo "deb  $pkg: download failed, running apt-get update and retrying"
      apt-get update -q >/dev/null
      apt_updated=1
    fi
    (cd "$RAW/deb" && apt-get download -q "$pkg" >/dev/null)
  fi
  local deb version
  deb=$(ls "$RAW/deb/${pkg}"_*.deb | head -n 1)
  version=$(dpkg-deb -f "$deb" Version)
  if [[ $version != "$want" ]]; then
    echo "deb  $pkg: got $version, not $want: the texts may differ from the documented md5s" >&2
  fi
  rm -rf "$dir"
  dpkg -x "$deb" "$dir"
  touch "$dir/.done"
  echo "deb  $pkg: fetched $(basename "$deb") ($(du -sh "$dir" | cut -f1) extracted)"
}

for spec in "${DEB_PKGS[@]}"; do fetch_deb "$spec"; done
(cd "$ROOT" && PYTHONPATH="$ROOT/training" "$PYTHON" -m keydecide_train.dev_sources \
  --raw "$RAW" --out "$OUT")
