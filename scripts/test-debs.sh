#!/usr/bin/env bash
# Installs the Debian packages on a clean system and types with them there (issue 17): a fresh
# Debian bookworm root made by mmdebstrap (the apt variant: essential packages and apt, nothing
# of this machine's), into which apt installs the five packages and what they depend on from
# the Debian mirror. In that root, chrooted:
#   - the CLI and the daemon start and decide with the installed models (/usr/share/keydecide);
#   - the Python module imports and types through /usr/lib/<triplet>/libkeydecide.so.1;
#   - the fcitx5 input method, as installed, types English and pinyin through fcitx5's own test
#     addons (the fcitx5_typing_test program of the build tree, against the root's fcitx5);
#   - the IBus engine, as installed: its component XML is valid and names the installed engine,
#     the engine types English and pinyin headlessly (--check), and the root's ibus-daemon
#     lists it and starts it.
#   - the language server keydecide-ls answers a scripted initialize, didOpen and completion over
#     stdio with "tomorrow" for "see you tomo".
#   scripts/test-debs.sh DEBS_DIR FCITX5_TYPING_TEST
set -euo pipefail
DEBS=$(cd "$1" && pwd) TYPING_TEST=$2
ROOT=$(mktemp -d /tmp/kd-debroot.XXXXXX)
cleanup() {
  for m in proc sys dev/pts dev; do umount -l "$ROOT/$m" 2>/dev/null || true; done
  rm -rf "$ROOT"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

includes=()
for deb in "$DEBS"/*.deb; do includes+=(--include="$deb"); done
((${#includes[@]} == 7)) || fail "expected 7 packages in $DEBS, found ${#includes[@]}"
echo "== a clean bookworm root with the packages ($ROOT)"
mmdebstrap --variant=apt --mode=root --quiet \
  --hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount "${includes[@]}" bookworm "$ROOT" \
  http://deb.debian.org/debian >"$ROOT.log" 2>&1 || { tail -30 "$ROOT.log"; fail "mmdebstrap"; }
rm -f "$ROOT.log"
for p in libkeydecide1 libkeydecide-dev keydecide keydecide-data fcitx5-keydecide ibus-keydecide \
         keydecide-ls; do
  chroot "$ROOT" dpkg-query -W -f='${Status}\n' "$p" | grep -q "install ok installed" ||
    fail "$p is not installed"
done

mount -t proc proc "$ROOT/proc"
in_root() { chroot "$ROOT" env -i HOME=/root PATH=/usr/bin:/bin "$@"; }
in_root keydecide --version
out=$(in_root keydecide predict --context "see you" --prefix tomo --json)
grep -q '"text": *"tomorrow"' <<<"$out" || fail "installed keydecide predict: $out"
out=$(in_root keydecide predict --lang zh --prefix nihao --json)
grep -q '你好' <<<"$out" || fail "installed keydecide predict --lang zh: $out"
out=$(in_root python3 -c \
  'import keydecide; print(keydecide.Engine().session().type("see you tomo").candidates[0].text)')
[[ $out == tomorrow ]] || fail "installed Python module printed '$out'"
echo "ok: CLI, models and the Python module"

# The language server as installed: LSP messages over stdio (python3 frames them: the keydecide
# package depends on it), the reply to the completion must offer "tomorrow" first.
lsp_script='
import json, subprocess, sys
def frame(o):
    b = json.dumps(o).encode()
    return b"Content-Length: %d\r\n\r\n" % len(b) + b
msgs = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
    {"jsonrpc": "2.0", "method": "initialized", "params": {}},
    {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": "file:///tmp/a.md", "languageId": "markdown", "version": 1,
        "text": "see you tomo"}}},
    {"jsonrpc": "2.0", "id": 2, "method": "textDocument/completion", "params": {
        "textDocument": {"uri": "file:///tmp/a.md"}, "position": {"line": 0, "character": 12}}},
    {"jsonrpc": "2.0", "id": 3, "method": "shutdown", "params": None},
    {"jsonrpc": "2.0", "method": "exit", "params": None},
]
p = subprocess.run(["keydecide-ls", "--no-personal"], input=b"".join(map(frame, msgs)),
                   capture_output=True, timeout=60)
out = p.stdout.decode()
replies = [json.loads(part.split("\r\n\r\n", 1)[1]) for part in out.split("Content-Length")[1:]]
items = [r for r in replies if r.get("id") == 2][0]["result"]["items"]
print(items[0]["label"], p.returncode)
'
out=$(in_root python3 -c "$lsp_script") || fail "installed keydecide-ls: $out"
[[ $out == "tomorrow 0" ]] || fail "installed keydecide-ls offered '$out'"
echo "ok: the language server"

# The input method as installed: fcitx5 finds it in its own folders, the addon finds the models.
cp "$TYPING_TEST" "$ROOT/usr/local/bin/fcitx5_typing_test"
for backend in in_process daemon; do
  in_root SKIP_FCITX_PATH=1 \
    FCITX_ADDON_DIRS=/usr/lib/x86_64-linux-gnu/fcitx5 \
    FCITX_DATA_DIRS=/usr/share/fcitx5:/usr/share/fcitx5/testing \
    /usr/local/bin/fcitx5_typing_test --backend "$backend" --work "/tmp/typing-$backend" \
    --daemon /usr/bin/keydecided 2>&1 | grep -E "checks passed|FAILED|failed" ||
    fail "the installed input method ($backend)"
done
echo "ok: the fcitx5 input method"

# The IBus engine as installed: the files where ibus looks, the XML valid and naming the engine,
# the engine typing headlessly, and ibus-daemon (IBUS_COMPONENT_PATH unset: its own folders)
# listing the engines and starting ours when one is chosen.
ENGINE=/usr/libexec/ibus-engine-keydecide XML=/usr/share/ibus/component/keydecide.xml
[ -x "$ROOT$ENGINE" ] || fail "$ENGINE is not installed"
in_root python3 -c '
import sys, xml.etree.ElementTree as ET
c = ET.parse(sys.argv[1]).getroot()
assert c.tag == "component" and c.findtext("name") == "org.keydecide.IBus", "component name"
assert c.findtext("exec") == sys.argv[2] + " --ibus", "exec: " + str(c.findtext("exec"))
names = [e.findtext("name") for e in c.iter("engine")]
assert names == ["keydecide", "keydecide-pinyin"], names' "$XML" "$ENGINE" ||
  fail "the installed $XML"
in_root "$ENGINE" --version | grep -q "^ibus-engine-keydecide " || fail "$ENGINE --version"
in_root "$ENGINE" --check || fail "the installed IBus engine's headless check"
in_root sh -c '
export IBUS_ADDRESS=unix:path=/tmp/ibus.socket
ibus-daemon --address=$IBUS_ADDRESS --panel=disable --config=disable \
  --emoji-extension=disable --cache=none >/tmp/ibus.log 2>&1 &
daemon=$!
for i in $(seq 100); do ibus list-engine >/dev/null 2>&1 && break; sleep 0.1; done
ibus engine keydecide 2>/dev/null  # fails without a focused input context, yet starts it
for i in $(seq 50); do
  grep -qs "^/usr/libexec/ibus-engine-keydecide" /proc/[0-9]*/cmdline && break; sleep 0.1
done
ibus list-engine | grep -q keydecide-pinyin && [ "$(ibus engine)" = keydecide ] &&
  grep -qs "^/usr/libexec/ibus-engine-keydecide" /proc/[0-9]*/cmdline
ok=$?
ibus exit >/dev/null 2>&1 || kill $daemon
wait $daemon
exit $ok' || fail "ibus-daemon did not list or start the installed engine"
echo "ok: the IBus engine"
echo "test-debs: the packages install on a clean bookworm root and type there"
