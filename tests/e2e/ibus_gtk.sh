#!/bin/bash
# End-to-end typing test of the keydecide IBus engine in a real GTK3 application: Xvfb, a
# private session bus, ibus-daemon on an address of its own with only our component
# (IBUS_COMPONENT_PATH) and its GTK3 candidate window (ibus-ui-gtk3), and tests/e2e/entry.py
# (a Gtk.Entry and a password entry), typed with xdotool; the entries' text and preedit are
# read back from files the application writes. The engine learns into a store of this run,
# which is read back at the end (libkeydecide's kd_personal_export, through ctypes).
#   tests/e2e/ibus_gtk.sh COMPONENT_DIR MODELS_DIR OUT_DIR LIBKEYDECIDE   (absolute paths)
# OUT_DIR gets the logs (ibus.log, engine.log, app.log, xvfb.log) and the screenshots
# english.png and pinyin.png; the key-to-candidate-window latency is printed (P50/P95; not
# asserted). Exit status: 0 passed, 1 failed, 77 skipped (no X server could be started).
set -Eeuo pipefail
[ $# -eq 4 ] || { echo "usage: $0 COMPONENT_DIR MODELS_DIR OUT_DIR LIBKEYDECIDE" >&2; exit 1; }
trap 'echo "FAIL: line $LINENO: \"$BASH_COMMAND\" exited with $?"' ERR
skip() { echo "SKIP: $*"; exit 77; }
command -v Xvfb >/dev/null || skip "Xvfb not found (package xvfb): no display server"

# A session bus of its own (also when the caller has one: a desktop's ibus must not see us).
if [ -z "${KD_E2E_PRIVATE_BUS:-}" ]; then
  command -v dbus-run-session >/dev/null || { echo "FAIL: dbus-run-session not found"; exit 1; }
  KD_E2E_PRIVATE_BUS=1 exec dbus-run-session -- bash "$0" "$@"
fi

COMPONENT_DIR=$1 MODELS_DIR=$2 OUT=$3 LIB=$4
HERE=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
for tool in xdotool import convert ibus-daemon ibus gsettings; do
  command -v "$tool" >/dev/null || fail "$tool not found"
done
[ -x /usr/bin/python3 ] || fail "/usr/bin/python3 not found"
[ -e "$COMPONENT_DIR/keydecide.xml" ] || fail "no keydecide.xml in $COMPONENT_DIR"
ENGINE_EXEC=$(sed -n 's:.*<exec>\(.*\) --ibus</exec>.*:\1:p' "$COMPONENT_DIR/keydecide.xml")
[ -x "$ENGINE_EXEC" ] || fail "the component's engine '$ENGINE_EXEC' is not there"
mkdir -p "$OUT"
rm -f "$OUT/english.png" "$OUT/pinyin.png" "$OUT/engine.log"
W=$(mktemp -d /tmp/keydecide-ibus-e2e.XXXXXX)
XVFB="" IBUS="" APP="" PASSED=0 FAILED=0

stop() {  # PID: wait up to 5 s for it to end, then kill it
  for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
stop_ibus() {  # ibus exits; the engine sees the bus go and stops (writing what it learned)
  [ -n "$IBUS" ] || return 0
  ibus exit >/dev/null 2>&1 || kill -TERM "$IBUS" 2>/dev/null || true
  stop "$IBUS"; IBUS=""
  local engine
  engine=$(pgrep -f "^$ENGINE_EXEC --ibus" || true)
  [ -z "$engine" ] || stop "$engine"
}
cleanup() {
  if [ -n "$APP" ]; then kill -TERM "$APP" 2>/dev/null || true; stop "$APP"; fi
  stop_ibus
  if [ -n "$XVFB" ]; then kill -TERM "$XVFB" 2>/dev/null || true; stop "$XVFB"; fi
  rm -rf "$W"
}
trap cleanup EXIT

# The X server, on a free display.
. "$HERE/gtk_typing.sh"
start_xvfb

# ibus, isolated: its own address, its settings in a file of this run, only our component; the
# engine waits for every decision (so the checks see them), logs keys and panels (the latency),
# and learns into this run's store. The candidate window (ibus-ui-gtk3) needs an engine in
# preload-engines (it aborts on an empty list), so the settings are a key file, not memory.
export XDG_CONFIG_HOME=$W/config XDG_DATA_HOME=$W/data XDG_CACHE_HOME=$W/cache
export XDG_RUNTIME_DIR=$W/run GSETTINGS_BACKEND=keyfile KEYDECIDE_MODEL_DIR=$MODELS_DIR
export IBUS_ADDRESS=unix:path=$W/ibus.socket IBUS_COMPONENT_PATH=$COMPONENT_DIR
export KEYDECIDE_IBUS_LOG=$OUT/engine.log KEYDECIDE_IBUS_WAIT_MS=10000
export KEYDECIDE_IBUS_LEARN=1 KEYDECIDE_IBUS_USER_STORE=$W/user.db
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
gsettings set org.freedesktop.ibus.general preload-engines "['keydecide']"
ibus-daemon --address="$IBUS_ADDRESS" --cache=none --config=disable --emoji-extension=disable \
  --panel=/usr/libexec/ibus-ui-gtk3 --verbose >"$OUT/ibus.log" 2>&1 &
IBUS=$!
for _ in $(seq 100); do
  ibus list-engine >/dev/null 2>&1 && break
  kill -0 "$IBUS" 2>/dev/null || fail "ibus-daemon exited (see $OUT/ibus.log)"; sleep 0.1
done
# (It answers failure while no input context has the focus, but sets the global engine.)
ibus engine keydecide >/dev/null 2>&1 || true
[ "$(ibus engine 2>/dev/null)" = keydecide ] || fail "ibus did not select keydecide ($OUT/ibus.log)"
for _ in $(seq 100); do xdotool search --name '^IBus Panel$' >/dev/null && break; sleep 0.1; done
xdotool search --name '^IBus Panel$' >/dev/null || fail "ibus's panel did not start ($OUT/ibus.log)"

# The application, focused by hand (there is no window manager).
OUT_FILE=$W/entry.txt ENTRY_PASSWORD=1 GTK_IM_MODULE=ibus GDK_BACKEND=x11 NO_AT_BRIDGE=1 \
  /usr/bin/python3 "$HERE/entry.py" >"$OUT/app.log" 2>&1 &
APP=$!
WID=$(timeout 10 xdotool search --sync --name '^keydecide-e2e$' | head -1) ||
  fail "the GTK window did not appear (see $OUT/app.log)"
timeout 10 xdotool windowfocus --sync "$WID"
sleep 1  # the input context reaches ibus and gets the engine

expect() {  # DESCRIPTION COMMAND...: a check of anything else
  if "${@:2}"; then PASSED=$((PASSED + 1)); echo "PASS: $1"
  else FAILED=$((FAILED + 1)); echo "FAIL: $1"; fi
}
timed_keys() {  # TEXT: one xdotool call per key, each preceded by the time it was sent (µs)
  local ch name
  for ((i = 0; i < ${#1}; i++)); do
    ch=${1:i:1}; name=$ch; [ "$ch" = " " ] && name=space
    echo "sent $(date +%s%6N)" >>"$W/sent.log"
    xdotool key "$name"; sleep 0.08
  done
}

echo "== English"
check text ""
type_ "see you tomo"
check preedit "tomo"
shot english
key Tab
check text "see you tomorrow "
type_ "I saw teh"
key space
check text "see you tomorrow I saw the "
key BackSpace
check text "see you tomorrow I saw "
check preedit "teh"
key space
check text "see you tomorrow I saw teh "
# Learning is on: an ordinary field's new word is learned (the control for the password field).
type_ "Openwordqq Openwordqq "

echo "== Latency (key sent by xdotool -> lookup table updated by the engine)"
key ctrl+a BackSpace  # Ctrl shortcuts go through to the application: select all, delete
check text ""
: >"$W/sent.log"
LAT_FROM=$(wc -l <"$OUT/engine.log")
timed_keys "the quick brown fox jumps over the lazy dog and then it goes home "
sleep 0.5
# A whole xdotool run without a key (start to exit): what dominates the first figure.
for _ in $(seq 20); do
  t0=$(date +%s%6N); xdotool getdisplaygeometry >/dev/null; echo $(($(date +%s%6N) - t0))
done >"$W/xdotool.log"

echo "== Pinyin"
key ctrl+a BackSpace
check text ""
key ctrl+shift+space
type_ "nihao"
check preedit "ni'hao"
shot pinyin
key space
check text "你好"
type_ "nihaozhongguo"
key space
check text "你好你好中国"
check preedit ""
key ctrl+shift+space  # back to English

echo "== Password fields"
# Hidden text: ibus's GTK module gives such an entry no input context (the keys never reach an
# engine); shown text (a "show password" box): the engine gets the keys and the purpose.
kill -USR1 "$APP"
sleep 0.5
type_ "Pwsecretqq Pwsecretqq tomo"
check password "Pwsecretqq Pwsecretqq tomo"
kill -USR2 "$APP"
sleep 0.5
PW_FROM=$(wc -l <"$OUT/engine.log")
type_ "Shownsecretqq Shownsecretqq tomo"
check shown "Shownsecretqq Shownsecretqq tomo"
sleep 0.5
expect "the engine was told the field is a password (purpose 8)" \
  grep -q '^purpose 8 ' "$OUT/engine.log"
expect "the shown password field's keys reached the engine" \
  bash -c "tail -n +$((PW_FROM + 1)) '$OUT/engine.log' | grep -q '^key '"
expect "no preedit or candidates were shown in the password field" \
  bash -c "! tail -n +$((PW_FROM + 1)) '$OUT/engine.log' | grep -qv -e '^key ' -e '^purpose '"

# The store, after the engine stopped (it writes what it learned as it stops).
kill -TERM "$APP" 2>/dev/null || true; stop "$APP"; APP=""
stop_ibus
LEARNED=$(/usr/bin/python3 -c '
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
out = ctypes.c_char_p()
lib.kd_personal_export.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)]
sys.exit(1) if lib.kd_personal_export(sys.argv[2].encode(), ctypes.byref(out)) else None
print(out.value.decode())' "$LIB" "$W/user.db") || LEARNED=""
expect "an ordinary field's word was learned" grep -q Openwordqq <<<"$LEARNED"
not_learned() { ! grep -q -e Pwsecretqq -e Shownsecretqq <<<"$LEARNED"; }
expect "the password fields' words were not learned" not_learned

# Latency: from each key sent to the first lookup table update after the engine got it.
/usr/bin/python3 - "$W/sent.log" "$OUT/engine.log" "$LAT_FROM" "$W/xdotool.log" <<'PY'
import sys
sent = [int(l.split()[1]) for l in open(sys.argv[1])]
events = [l.split() for l in open(sys.argv[2]).read().splitlines()[int(sys.argv[3]):]]
keys, panels = [], []
for what, _, t in (e for e in events if len(e) == 3):
    if what == "key": keys.append(int(t))
    elif what == "panel": panels.append(int(t))
def first_after(t):
    return next((p for p in panels if p >= t), None)
def pct(xs, q):
    xs = sorted(xs); return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")
e2e = [first_after(s) - s for s in sent if first_after(s) is not None]
eng = [first_after(k) - k for k in keys[:len(sent)] if first_after(k) is not None]
# (xdotool -> table includes starting xdotool, the X server, GTK, ibus's module and daemon.)
xdo = [int(l) for l in open(sys.argv[4])]
for name, xs in (("xdotool key -> table", e2e), ("engine key -> table", eng),
                 ("xdotool run, no key", xdo)):
    print(f"latency {name:20}: n={len(xs)} P50={pct(xs, .5)/1000:.2f} ms "
          f"P95={pct(xs, .95)/1000:.2f} ms max={max(xs)/1000 if xs else 0:.2f} ms")
PY
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"

if grep -E '(ibus-engine-keydecide: |CRITICAL|ERROR)' "$OUT/ibus.log" "$OUT/app.log"; then
  FAILED=$((FAILED + 1)); echo "FAIL: ibus or the application reported the errors above"
fi
echo "e2e: $PASSED passed, $FAILED failed (logs and screenshots in $OUT)"
[ "$FAILED" -eq 0 ] || exit 1
