#!/usr/bin/env bash
# keydecide personal against hostile and careless files (issue 51), on stores of its own:
#   - a word stored as bytes that are not UTF-8: list --json and export give what is sound
#     (before: nlohmann's type_error.316, exit 134);
#   - an export is created 0600, whatever the umask (it holds every learned word);
#   - a store on a read-only mount, a 0400 file, a read-only folder: list and export work;
#     import says it cannot write and what to do;
#   - a full disk at open says so and what to do (not "disk I/O error");
#   - an import from a pipe stops reading past the export format's 256 MiB;
#   - list shows bidi controls and broken bytes escaped, never raw.
# The read-only and full-disk cases need root (a tmpfs mounted here, a process run as nobody)
# and are skipped without it. Usage: personal_files_test.sh KEYDECIDE
set -uo pipefail
KD=$1
DIR=$(mktemp -d)
chmod 0755 "$DIR"
MOUNTS=()
cleanup() {
  for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null; done
  chmod -R u+w "$DIR" 2>/dev/null
  rm -rf "$DIR"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
S="$DIR/store/user.db"

cat > "$DIR/in.json" <<'JSON'
{"format": "keydecide-user-store", "version": 1, "exported_at": 0,
 "words": [{"language": "en", "word": "Zorblax", "count": 3, "picks": 1, "weight": 2.5,
            "first_time": 1000, "last_time": 2000},
           {"language": "en", "word": "Quoggle", "count": 1, "picks": 0, "weight": 1,
            "first_time": 5000, "last_time": 5000}],
 "pairs": [{"language": "en", "previous": "Quoggle", "word": "Zorblax", "count": 2,
            "weight": 1.5, "last_time": 2000}]}
JSON
"$KD" personal import --store "$S" "$DIR/in.json" >/dev/null || fail "import"

# An export is private, whatever the umask.
(umask 022 && "$KD" personal export --store "$S" --out "$DIR/e.json") || fail "export --out"
[[ $(stat -c %a "$DIR/e.json" 2>/dev/null) == 600 ]] || fail "export is $(stat -c %a "$DIR/e.json") (want 600)"
echo old > "$DIR/e2.json" && chmod 0644 "$DIR/e2.json"
"$KD" personal export --store "$S" --out "$DIR/e2.json" || fail "export over a file"
[[ $(stat -c %a "$DIR/e2.json") == 600 ]] || fail "export over a 0644 file left it $(stat -c %a "$DIR/e2.json")"

# A damaged word (bytes 5A 6F 72 FF 62 6C 61 78) and its pair: what is sound is listed and
# exported, and the export says it left the two out.
/usr/bin/python3 - "$S" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE words SET word = CAST(X'5A6F72FF626C6178' AS TEXT) WHERE word = 'Zorblax'")
db.execute("UPDATE pairs SET word = CAST(X'5A6F72FF626C6178' AS TEXT) WHERE word = 'Zorblax'")
db.commit()
PY
"$KD" personal list --store "$S" --json > "$DIR/list.json" 2>"$DIR/err"
rc=$?
[[ $rc == 0 ]] || fail "list --json of a damaged store: exit $rc ($(tail -1 "$DIR/err"))"
grep -q '"Quoggle"' "$DIR/list.json" || fail "list --json lost the sound words"
"$KD" personal export --store "$S" --out "$DIR/damaged.json" 2>"$DIR/err" || fail "export of a damaged store"
grep -q "left out 2 entries" "$DIR/err" || fail "export did not say what it left out: $(cat "$DIR/err")"
"$KD" personal import --store "$DIR/again/user.db" "$DIR/damaged.json" >/dev/null \
  || fail "the damaged store's export does not import"
"$KD" personal list --store "$S" > "$DIR/list.txt" || fail "list of a damaged store"
grep -q $'\xff' "$DIR/list.txt" && fail "list printed a raw broken byte"
grep -Fq 'Zor\xffblax' "$DIR/list.txt" || fail "list did not show the broken byte escaped: $(cat "$DIR/list.txt")"

# A bidi control already in a store (written before it was refused) is shown escaped.
/usr/bin/python3 - "$S" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("INSERT INTO words VALUES('en', 'gnp\u202ejs', 1, 0, 1.0, 0, 1, 1, '')")
db.commit()
PY
"$KD" personal list --store "$S" > "$DIR/list.txt"
grep -q $'\u202e' "$DIR/list.txt" && fail "list printed a raw U+202E"
grep -Fq 'gnp\u{202e}js' "$DIR/list.txt" || fail "list did not escape U+202E: $(grep gnp "$DIR/list.txt")"

# An import reads no more than the export format's 256 MiB from a pipe.
head -c 600000000 /dev/zero | "$KD" personal import --store "$S" - 2>"$DIR/err" >/dev/null \
  && fail "a 600 MB import was accepted"
grep -q "256 MiB" "$DIR/err" || fail "oversized import message: $(cat "$DIR/err")"

if [[ $(id -u) == 0 ]] && command -v setpriv >/dev/null; then
  AS_NOBODY=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
  # A 0400 file in a folder nobody may write, then a read-only folder, read as its owner.
  mkdir -p "$DIR/ro"
  cp "$DIR/in.json" "$DIR/ro/in.json"
  chown -R nobody:nogroup "$DIR/ro"
  "${AS_NOBODY[@]}" "$KD" personal import --store "$DIR/ro/user.db" "$DIR/ro/in.json" >/dev/null \
    || fail "import as nobody"
  chmod 0400 "$DIR/ro/user.db"
  "${AS_NOBODY[@]}" "$KD" personal list --store "$DIR/ro/user.db" 2>"$DIR/err" | grep -q Zorblax \
    || fail "list of a 0400 store: $(cat "$DIR/err")"
  "${AS_NOBODY[@]}" "$KD" personal export --store "$DIR/ro/user.db" 2>"$DIR/err" | grep -q Zorblax \
    || fail "export of a 0400 store: $(cat "$DIR/err")"
  "${AS_NOBODY[@]}" "$KD" personal import --store "$DIR/ro/user.db" "$DIR/ro/in.json" 2>"$DIR/err" \
    && fail "import into a 0400 store succeeded"
  grep -q "read-only" "$DIR/err" || fail "import into a 0400 store: $(cat "$DIR/err")"
  chmod 0600 "$DIR/ro/user.db"
  chmod 0500 "$DIR/ro"
  "${AS_NOBODY[@]}" "$KD" personal list --store "$DIR/ro/user.db" 2>"$DIR/err" | grep -q Zorblax \
    || fail "list in a read-only folder: $(cat "$DIR/err")"
  "${AS_NOBODY[@]}" "$KD" personal export --store "$DIR/ro/user.db" 2>"$DIR/err" | grep -q Zorblax \
    || fail "export in a read-only folder: $(cat "$DIR/err")"
  chmod 0700 "$DIR/ro"

  # A read-only mount.
  mkdir -p "$DIR/mnt"
  if mount -t tmpfs -o size=4m tmpfs "$DIR/mnt" 2>/dev/null; then
    MOUNTS+=("$DIR/mnt")
    "$KD" personal import --store "$DIR/mnt/user.db" "$DIR/in.json" >/dev/null || fail "import on tmpfs"
    mount -o remount,ro "$DIR/mnt" || fail "remount read-only"
    "$KD" personal list --store "$DIR/mnt/user.db" 2>"$DIR/err" | grep -q Zorblax \
      || fail "list on a read-only mount: $(cat "$DIR/err")"
    "$KD" personal export --store "$DIR/mnt/user.db" 2>"$DIR/err" | grep -q Zorblax \
      || fail "export on a read-only mount: $(cat "$DIR/err")"
    umount "$DIR/mnt"
    # A full disk: the store is there, the folder has no room for SQLite's log.
    mount -t tmpfs -o size=256k tmpfs "$DIR/mnt" || fail "mount a small tmpfs"
    "$KD" personal import --store "$DIR/mnt/user.db" "$DIR/in.json" >/dev/null || fail "import on the small tmpfs"
    dd if=/dev/zero of="$DIR/mnt/filler" bs=4k 2>/dev/null
    "$KD" personal import --store "$DIR/mnt/user.db" "$DIR/in.json" 2>"$DIR/err" >/dev/null \
      && fail "import on a full disk succeeded"
    grep -q "disk full" "$DIR/err" && grep -q "free" "$DIR/err" \
      || fail "full disk message: $(cat "$DIR/err")"
    umount "$DIR/mnt"
  else
    echo "personal files: no tmpfs mount here; read-only mount and full disk skipped"
  fi
else
  echo "personal files: not root; the read-only and full-disk cases skipped"
fi

[[ $failures == 0 ]] || { echo "personal files: $failures failures"; exit 1; }
echo "personal files: ok"
