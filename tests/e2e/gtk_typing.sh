# What the GTK typing tests (fcitx5_gtk.sh, ibus_gtk.sh) share; sourced after they set W (the
# test's folder), OUT (its logs and screenshots), PASSED and FAILED (counts), and skip.

# Starts an X server on a free display (Xvfb writes its number to fd 3 once it accepts clients,
# so two tests never take the same one), sets XVFB to its pid and exports DISPLAY; skips the
# test (exit 77) where none starts.
start_xvfb() {
  Xvfb -displayfd 3 -screen 0 800x220x24 -nolisten tcp -br 3>"$W/display" >"$OUT/xvfb.log" 2>&1 &
  XVFB=$!
  for _ in $(seq 100); do
    if [ -s "$W/display" ] || ! kill -0 "$XVFB" 2>/dev/null; then break; fi; sleep 0.1
  done
  [ -s "$W/display" ] || skip "Xvfb did not start (see $OUT/xvfb.log): no display server"
  DISPLAY=:$(head -1 "$W/display")
  export DISPLAY
  unset WAYLAND_DISPLAY
}

# FIELD WANT: polls for up to 5 s until the field the application writes (text: entry.txt;
# any other: entry.txt.FIELD, e.g. preedit) is WANT, and counts a pass or a failure.
check() {
  local file=$W/entry.txt got=""
  [ "$1" != text ] && file=$W/entry.txt.$1
  for _ in $(seq 50); do
    got=$(cat "$file" 2>/dev/null || true)
    [ "$got" = "$2" ] && break; sleep 0.1
  done
  if [ "$got" = "$2" ]; then PASSED=$((PASSED + 1)); echo "PASS: $1 is '$2'"
  else FAILED=$((FAILED + 1)); echo "FAIL: $1 is '$got', expected '$2'"; fi
}

type_() { xdotool type --delay 60 -- "$1"; }
key() { xdotool key --delay 60 "$@"; }

# NAME: the screen (entry, inline preedit, candidate window) once the popup is drawn, cropped
# to the windows (the rest of the screen is black), as $OUT/NAME.png.
shot() {
  sleep 0.7
  import -window root png:- | convert - -bordercolor black -border 1 -trim +repage -colors 64 \
    "$OUT/$1.png"
}
