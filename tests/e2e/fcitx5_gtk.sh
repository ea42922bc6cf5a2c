#!/bin/bash
# End-to-end typing test of the keydecide fcitx5 input method in a real GTK3 application:
# Xvfb, a private session bus, fcitx5 with only the addons it needs (keydecide the default IM)
# and tests/e2e/entry.py (one Gtk.Entry), typed with xdotool; the entry's text and preedit are
# read back from files the application writes.
#   tests/e2e/fcitx5_gtk.sh ADDON_DIR DATA_DIR MODELS_DIR OUT_DIR   (absolute paths)
# OUT_DIR gets the logs (fcitx5.log, app.log, xvfb.log) and the screenshots english.png and
# pinyin.png. Exit status: 0 passed, 1 failed, 77 skipped (no X server could be started).
set -Eeuo pipefail
[ $# -eq 4 ] || { echo "usage: $0 ADDON_DIR DATA_DIR MODELS_DIR OUT_DIR" >&2; exit 1; }
trap 'echo "FAIL: line $LINENO: \"$BASH_COMMAND\" exited with $?"' ERR
skip() { echo "SKIP: $*"; exit 77; }
command -v Xvfb >/dev/null || skip "Xvfb not found (package xvfb): no display server"

# A session bus of its own (also when the caller has one: a desktop's fcitx5, or a parallel
# run, must not own org.fcitx.Fcitx5 on ours).
if [ -z "${KD_E2E_PRIVATE_BUS:-}" ]; then
  command -v dbus-run-session >/dev/null || { echo "FAIL: dbus-run-session not found"; exit 1; }
  KD_E2E_PRIVATE_BUS=1 exec dbus-run-session -- bash "$0" "$@"
fi

ADDON_DIR=$1 DATA_DIR=$2 MODELS_DIR=$3 OUT=$4
HERE=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
for tool in xdotool import convert fcitx5 dbus-send; do
  command -v "$tool" >/dev/null || fail "$tool not found"
done
[ -x /usr/bin/python3 ] || fail "/usr/bin/python3 not found"
[ -e "$ADDON_DIR/libkeydecide-fcitx5.so" ] || fail "no libkeydecide-fcitx5.so in $ADDON_DIR"
SYS_ADDONS=""  # fcitx5's own addons (FCITX_ADDON_DIRS replaces the default)
for dir in /usr/lib/*/fcitx5 /usr/lib/fcitx5; do
  [ -e "$dir/libxcb.so" ] && { SYS_ADDONS=$dir; break; }
done
[ -n "$SYS_ADDONS" ] || fail "fcitx5's addons (libxcb.so) not found"
mkdir -p "$OUT"
rm -f "$OUT/english.png" "$OUT/pinyin.png"
W=$(mktemp -d /tmp/keydecide-e2e.XXXXXX)
XVFB="" FCITX="" APP="" PASSED=0 FAILED=0

fcitx_call() {  # METHOD [ARGS...] on fcitx5's controller, never starting one by D-Bus activation
  dbus-send --session --print-reply --dest=org.freedesktop.DBus / \
    org.freedesktop.DBus.NameHasOwner string:org.fcitx.Fcitx5 2>/dev/null | grep 'true' >/dev/null &&
    dbus-send --session --print-reply --dest=org.fcitx.Fcitx5 /controller \
      "org.fcitx.Fcitx.Controller1.$1" "${@:2}" 2>/dev/null
}
stop() {  # PID: wait up to 3 s for it to end, then kill it
  for _ in $(seq 30); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
cleanup() {
  if [ -n "$APP" ]; then kill -TERM "$APP" 2>/dev/null || true; stop "$APP"; fi
  if [ -n "$FCITX" ]; then fcitx_call Exit >/dev/null || kill -TERM "$FCITX" 2>/dev/null || true
                           stop "$FCITX"; fi
  if [ -n "$XVFB" ]; then kill -TERM "$XVFB" 2>/dev/null || true; stop "$XVFB"; fi
  rm -rf "$W"
}
trap cleanup EXIT

# The X server, on a free display.
. "$HERE/gtk_typing.sh"
start_xvfb

# fcitx5's configuration, isolated: keydecide is the group's default IM, active in every new
# input context; no waiting for decisions to be cut short, nothing learned.
export XDG_CONFIG_HOME=$W/config XDG_DATA_HOME=$W/data XDG_CACHE_HOME=$W/cache
export XDG_RUNTIME_DIR=$W/run FCITX_CONFIG_HOME=$W/config/fcitx5 KEYDECIDE_MODEL_DIR=$MODELS_DIR
mkdir -p "$FCITX_CONFIG_HOME/conf" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
printf '%s\n' '[Groups/0]' Name=Default 'Default Layout=us' DefaultIM=keydecide \
  '[Groups/0/Items/0]' Name=keyboard-us Layout= '[Groups/0/Items/1]' Name=keydecide Layout= \
  '[GroupOrder]' 0=Default >"$FCITX_CONFIG_HOME/profile"
printf '%s\n' '[Behavior]' ActiveByDefault=True ShowInputMethodInformation=False \
  >"$FCITX_CONFIG_HOME/config"
printf '%s\n' Language=English DecisionWaitMs=10000 Learn=False \
  >"$FCITX_CONFIG_HOME/conf/keydecide.conf"
printf '%s\n' 'Font="WenQuanYi Micro Hei 15"' >"$FCITX_CONFIG_HOME/conf/classicui.conf"
export FCITX_ADDON_DIRS=$ADDON_DIR:$SYS_ADDONS FCITX_DATA_DIRS=$DATA_DIR:/usr/share/fcitx5
fcitx5 --disable=all --enable=dbus,dbusfrontend,xcb,keyboard,classicui,keydecide \
  --verbose=default=4 >"$OUT/fcitx5.log" 2>&1 &
FCITX=$!
for _ in $(seq 100); do
  fcitx_call CurrentInputMethod >/dev/null && break
  kill -0 "$FCITX" 2>/dev/null || fail "fcitx5 exited (see $OUT/fcitx5.log)"; sleep 0.1
done
fcitx_call CurrentInputMethod >/dev/null || fail "fcitx5 did not come up on D-Bus"

# The application, focused by hand (there is no window manager).
OUT_FILE=$W/entry.txt GTK_IM_MODULE=fcitx XMODIFIERS=@im=fcitx GDK_BACKEND=x11 NO_AT_BRIDGE=1 \
  /usr/bin/python3 "$HERE/entry.py" >"$OUT/app.log" 2>&1 &
APP=$!
WID=$(timeout 10 xdotool search --sync --name '^keydecide-e2e$' | head -1) ||
  fail "the GTK window did not appear (see $OUT/app.log)"
timeout 10 xdotool windowfocus --sync "$WID"
focused_im() { fcitx_call CurrentInputMethod | grep '"keydecide"' >/dev/null; }
for _ in $(seq 100); do focused_im && break; sleep 0.1; done
focused_im || fail "keydecide is not the focused input method (see $OUT/fcitx5.log)"

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

echo "== Pinyin"
key ctrl+a BackSpace  # Ctrl shortcuts go through to the application: select all, delete
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

if grep -E '(keydecide: |Failed to load|Could not find|Couldn.t find)' "$OUT/fcitx5.log"; then
  FAILED=$((FAILED + 1)); echo "FAIL: fcitx5 reported the errors above ($OUT/fcitx5.log)"
fi
echo "e2e: $PASSED passed, $FAILED failed (logs and screenshots in $OUT)"
[ "$FAILED" -eq 0 ] || exit 1
