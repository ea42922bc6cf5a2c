#!/usr/bin/env bash
# Fetch the Chinese (Simplified) lexicon and text sources listed in /work/shared/DATA.md into
# data/zh/ (git-ignored), then turn the text into data/zh/{train,dev}/ with
# training/keydecide_train/prepare_zh_text.py. Run directly or as `scripts/fetch-data.sh --zh`.
#
#   data/zh/lexicon/jieba.dict.utf8   jieba's dictionary, "word count tag" lines (npm nodejieba,
#                                     only this file is extracted: the package's test texts
#                                     are RESERVED for evaluation and never unpacked)
#   data/zh/lexicon/sc.dict.txt       libime's sc.dict dumped to text with libime_pinyindict,
#                                     "word pin'yin count" lines (Debian libime-data, libime-bin)
#   data/zh/raw/deb/<pkg>/            rime-essay, rime-data-luna-pinyin, pinyin-database,
#                                     unpacked for later use (per-reading percentages, fallback)
#   data/zh/raw/npm/pinyin-pro/       npm pinyin-pro (readings for words without one; later use)
#   data/zh/raw/deb/<pkg>/            the text sources (TEXT_DEBS: man pages, LibreOffice help,
#                                     Debian and GNOME documentation, zh_CN .mo catalogues)
#   data/zh/raw/local-mo/             copies of this machine's /usr/share/locale/zh_CN .mo files
#   data/zh/teacher/lm_sc.arpa        sunpinyin's open-gram model (Debian sunpinyin-data, CC BY-SA
#                                     3.0) printed by its tslminfo (sunpinyin-utils) in ARPA form
#   data/zh/teacher/sunpinyin.tsv     its expected word-pair counts, the word bigram's teacher
#                                     (training/keydecide_train/sunpinyin_teacher.py)
#   data/zh/teacher/libime_zh_CN.arpa libime's word trigram zh_CN.lm (Debian
#                                     libime-data-language-model, LGPL-2.1+; a KenLM binary)
#                                     printed as ARPA by training/keydecide_train/kenlm_arpa.py
#                                     (and its Debian copyright file, libime_zh_CN.copyright)
#   data/zh/raw/deb/wesnoth-1.16-*/   The Battle for Wesnoth's zh_CN catalogues (only those files)
#   data/zh/{train,dev}/<source>.txt  plain text, split by whole document (prepare_zh_text.py)
#   data/zh/general/wesnoth.txt       the held-out Wesnoth campaigns: general (narrative) dev text
#   data/zh/manifest.json             sources, documents, lines, Han characters per split
#
# Idempotent: each package is downloaded and unpacked once (a ".done" marker), nothing is
# installed system-wide (libime_pinyindict runs from the unpacked packages with
# LD_LIBRARY_PATH). Needs: apt-get, dpkg, npm, tar.
#
# Never add fortunes-zh (RESERVED for evaluation) or the nodejieba / @node-rs/jieba test texts.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ZH="$ROOT/data/zh"
RAW="$ZH/raw"
LEX="$ZH/lexicon"

# libime_pinyindict and the shared libraries it needs (Debian bookworm).
TOOL_DEBS=(libime-bin libimecore0 libimepinyin0 libfcitx5utils2)
DATA_DEBS=(libime-data rime-essay rime-data-luna-pinyin pinyin-database)
# The word bigram's general-domain teacher: sunpinyin's open-gram trigram and the tool that prints
# it (docs/MODEL.md, "General-domain teacher").
TEACHER_DEBS=(sunpinyin-data sunpinyin-utils)
# libime's word trigram (KenLM binary; kenlm_arpa.py reads it, no tool needed).
LIBIME_TEACHER_DEBS=(libime-data-language-model)
# Words of text the teacher's expected counts stand for, and the rarest pair kept at that size.
TEACHER_TOKENS=20000000
TEACHER_MIN_COUNT=2
# Chinese (Simplified) text: documentation in zh_CN, and packages shipping zh_CN translation
# catalogues (.mo, msgstr only; some also zh_CN GNOME help pages). prepare_zh_text.py reads
# the .mo files and help pages of every package unpacked here, so this is the only list.
# A package that is not available is skipped.
TEXT_DEBS=(manpages-zh libreoffice-help-zh-cn debian-reference-zh-cn debian-handbook
           installation-guide-amd64 debian-faq-zh-cn maint-guide-zh-cn debian-edu-doc-zh-cn
           gnome-user-docs)
MO_DEBS=(libreoffice-l10n-zh-cn vlc-l10n gnome-control-center-data nautilus-data gedit-common
         libgtk-3-common gnome-shell-common evolution-common gnucash-common gimp-data inkscape
         gnumeric-common aptitude-common synaptic thunar-data gnome-terminal-data evince-common
         totem-common)
# Modern narrative prose: The Battle for Wesnoth's zh_CN catalogues (GPL-2+), its story campaigns'
# narration and dialogue; only the zh_CN .mo files are unpacked. Two campaigns are held out whole
# as the general dev text, the rest is training text (prepare_zh_text.py, WESNOTH_GENERAL_DEV).
WESNOTH_DEBS=(wesnoth-1.16-data wesnoth-1.16-did wesnoth-1.16-dm wesnoth-1.16-dw wesnoth-1.16-ei
              wesnoth-1.16-httt wesnoth-1.16-l wesnoth-1.16-low wesnoth-1.16-nr wesnoth-1.16-sof
              wesnoth-1.16-sota wesnoth-1.16-sotbe wesnoth-1.16-thot wesnoth-1.16-trow
              wesnoth-1.16-tsg wesnoth-1.16-ttb wesnoth-1.16-utbs)
LOCAL_MO=/usr/share/locale/zh_CN/LC_MESSAGES
NODEJIEBA=nodejieba@3.5.8
JIEBA_DICT=package/submodules/cppjieba/dict/jieba.dict.utf8
PINYIN_PRO=pinyin-pro@3.29.4

start=$(date +%s)
apt_updated=0

# fetch_deb PKG [PATTERN]: download and unpack PKG into raw/deb/PKG (only the members matching
# the tar wildcard PATTERN when given).
fetch_deb() {
  local pkg="$1" dir="$RAW/deb/$1" members="${2:-}"
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
    if ! (cd "$RAW/deb" && apt-get download -q "$pkg" >/dev/null 2>&1); then
      echo "deb  $pkg: NOT AVAILABLE, skipped" >&2
      return
    fi
  fi
  local deb
  deb=$(ls "$RAW/deb/${pkg}"_*.deb | head -n 1)
  rm -rf "$dir"
  if [[ -n $members ]]; then
    mkdir -p "$dir"
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir" --wildcards "$members"
  else
    dpkg -x "$deb" "$dir"
  fi
  touch "$dir/.done"
  echo "deb  $pkg: fetched $(basename "$deb") ($(du -sh "$dir" | cut -f1) extracted)"
}

# npm pack SPEC, then extract only the members given (all when none).
fetch_npm() {
  local spec="$1" name="${1%@*}"
  shift
  local dir="$RAW/npm/$name"
  if [[ -f "$dir/.done" ]]; then
    echo "npm  $name: present"
    return
  fi
  mkdir -p "$RAW/npm" "$dir"
  local tgz
  tgz=$(cd "$RAW/npm" && npm pack --silent "$spec" | tail -n 1)
  tar -xzf "$RAW/npm/$tgz" -C "$dir" "$@"
  touch "$dir/.done"
  echo "npm  $name: fetched $tgz"
}

for pkg in "${TOOL_DEBS[@]}" "${DATA_DEBS[@]}"; do fetch_deb "$pkg"; done
fetch_npm "$NODEJIEBA" "$JIEBA_DICT"
fetch_npm "$PINYIN_PRO"

mkdir -p "$LEX"
if [[ -f "$RAW/npm/nodejieba/$JIEBA_DICT" ]]; then
  cp "$RAW/npm/nodejieba/$JIEBA_DICT" "$LEX/jieba.dict.utf8"
  echo "jieba.dict.utf8: $(wc -l <"$LEX/jieba.dict.utf8") lines"
fi

sc="$RAW/deb/libime-data/usr/share/libime/sc.dict"
tool="$RAW/deb/libime-bin/usr/bin/libime_pinyindict"
if [[ -f $sc && -x $tool ]]; then
  if [[ ! -s "$LEX/sc.dict.txt" || "$sc" -nt "$LEX/sc.dict.txt" ]]; then
    libs=""
    for pkg in "${TOOL_DEBS[@]}"; do libs+="$RAW/deb/$pkg/usr/lib/x86_64-linux-gnu:"; done
    LD_LIBRARY_PATH="$libs" "$tool" -d "$sc" "$LEX/sc.dict.txt.tmp"
    mv "$LEX/sc.dict.txt.tmp" "$LEX/sc.dict.txt"
  fi
  echo "sc.dict.txt: $(wc -l <"$LEX/sc.dict.txt") lines"
else
  echo "sc.dict: libime-data or libime-bin missing, no readings dumped" >&2
fi

for pkg in "${TEACHER_DEBS[@]}"; do fetch_deb "$pkg"; done
spdir="$RAW/deb/sunpinyin-data/usr/lib/x86_64-linux-gnu/sunpinyin/data"
tslminfo="$RAW/deb/sunpinyin-utils/usr/bin/tslminfo"
teacher="$ZH/teacher"
if [[ -f $spdir/lm_sc.t3g && -x $tslminfo ]]; then
  mkdir -p "$teacher"
  if [[ ! -s "$teacher/lm_sc.arpa" ]]; then
    "$tslminfo" -v -p "$spdir/lm_sc.t3g" >"$teacher/lm_sc.arpa.tmp"
    mv "$teacher/lm_sc.arpa.tmp" "$teacher/lm_sc.arpa"
  fi
  if [[ ! -s "$teacher/sunpinyin.tsv" ]]; then
    (cd "$ROOT" && PYTHONPATH="$ROOT/training" /usr/bin/python3 -m keydecide_train.sunpinyin_teacher \
      --dict "$spdir/pydict_sc.bin" --arpa "$teacher/lm_sc.arpa" --tokens $TEACHER_TOKENS \
      --min-count $TEACHER_MIN_COUNT --out "$teacher/sunpinyin.tsv.tmp")
    mv "$teacher/sunpinyin.tsv.tmp" "$teacher/sunpinyin.tsv"
  fi
  echo "teacher: $(wc -l <"$teacher/sunpinyin.tsv") lines of sunpinyin expected counts"
else
  echo "teacher: sunpinyin-data or sunpinyin-utils missing, no teacher counts" >&2
fi

for pkg in "${LIBIME_TEACHER_DEBS[@]}"; do fetch_deb "$pkg"; done
libime_lm="$RAW/deb/libime-data-language-model/usr/lib/x86_64-linux-gnu/libime/zh_CN.lm"
if [[ -f $libime_lm ]]; then
  mkdir -p "$teacher"
  if [[ ! -s "$teacher/libime_zh_CN.arpa" ]]; then
    # Writes libime_zh_CN.arpa.tmp, then renames it.
    (cd "$ROOT" && PYTHONPATH="$ROOT/training" /usr/bin/python3 -m keydecide_train.kenlm_arpa \
      --lm "$libime_lm" --out "$teacher/libime_zh_CN.arpa")
  fi
  # Its licence, shipped beside the file converted from it (models/zh/README.md).
  cp "$RAW/deb/libime-data-language-model/usr/share/doc/libime-data-language-model/copyright" \
    "$teacher/libime_zh_CN.copyright"
  echo "teacher: libime_zh_CN.arpa, n-grams $(sed -n 's/^ngram //p; /-grams:/q' \
    "$teacher/libime_zh_CN.arpa" | paste -sd ' ')"
else
  echo "teacher: libime-data-language-model missing, no libime_zh_CN.arpa" >&2
fi

for pkg in "${TEXT_DEBS[@]}" "${MO_DEBS[@]}"; do fetch_deb "$pkg"; done
for pkg in "${WESNOTH_DEBS[@]}"; do fetch_deb "$pkg" '*/zh_CN/LC_MESSAGES/*.mo'; done

# This machine's own zh_CN catalogues, copied so that the text step reads data/ only.
if compgen -G "$LOCAL_MO/*.mo" >/dev/null; then
  mkdir -p "$RAW/local-mo"
  copied=0
  for mo in "$LOCAL_MO"/*.mo; do
    if [[ ! -f "$RAW/local-mo/$(basename "$mo")" ]]; then
      cp "$mo" "$RAW/local-mo/"
      copied=$((copied + 1))
    fi
  done
  echo "local-mo: $(ls "$RAW/local-mo" | wc -l) catalogues from $LOCAL_MO ($copied new)"
else
  echo "local-mo: no catalogues in $LOCAL_MO, skipped" >&2
fi

(cd "$ROOT" && PYTHONPATH="$ROOT/training" /usr/bin/python3 -m keydecide_train.prepare_zh_text --data "$ZH")

echo "fetch-data-zh.sh: done in $(( $(date +%s) - start )) s"
