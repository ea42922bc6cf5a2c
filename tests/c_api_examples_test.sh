#!/usr/bin/env bash
# The examples against a real keydecided process: the C client (through the daemon and
# in-process) and the Python client, in English and in Chinese (the daemon's default
# languages: en, plus zh as its lexicon is there); then SIGTERM must stop the daemon cleanly
# (exit 0, socket removed), and a language that cannot be opened must stop it at start.
# usage: c_api_examples_test.sh KEYDECIDED C_CLIENT PYTHON_CLIENT MODELS_DIR
set -euo pipefail
KEYDECIDED=$1 C_CLIENT=$2 PY_CLIENT=$3 MODELS=$4
WORK=$(mktemp -d)
SOCK=$WORK/keydecided.sock
trap 'kill $PID 2>/dev/null || true; rm -rf "$WORK"' EXIT

"$KEYDECIDED" --socket "$SOCK" --model-dir "$MODELS" --model none --quiet &
PID=$!
for _ in $(seq 1 200); do
  [[ -S $SOCK ]] && break
  sleep 0.05
done
[[ -S $SOCK ]] || { echo "FAIL: daemon did not create $SOCK"; exit 1; }
[[ $(stat -c %a "$SOCK") == 600 ]] || { echo "FAIL: socket mode $(stat -c %a "$SOCK")"; exit 1; }

check() {  # check NAME OUTPUT EXPECTED-SUBSTRING
  if ! grep -qF -- "$3" <<<"$2"; then
    echo "FAIL: $1 output lacks '$3':"; echo "$2"; exit 1
  fi
}

out=$("$C_CLIENT" --socket "$SOCK" "see you tomo")
check c_client_daemon "$out" "[tomo] tomorrow"
check c_client_daemon "$out" "(lexicon_only)"
check c_client_daemon "$out" "languages: en,zh"
out=$("$C_CLIENT" --socket "$SOCK" --lang zh "nihao")
check c_client_daemon_zh "$out" "[nihao] 你好"
if "$C_CLIENT" --socket "$SOCK" --lang xx "a" 2>"$WORK/err"; then
  echo "FAIL: c_client --lang xx succeeded"; exit 1
fi
check c_client_daemon_xx "$(cat "$WORK/err")" "not_supported"
out=$("$C_CLIENT" --local "$MODELS" "see you tomo")
check c_client_local "$out" "[tomo] tomorrow"
out=$("$C_CLIENT" --local "$MODELS" --lang zh,en "nihao")
check c_client_local_zh "$out" "[nihao] 你好"
check c_client_local_zh "$out" "languages: zh,en"
out=$(/usr/bin/python3 "$PY_CLIENT" --socket "$SOCK" "see you tomo")
check python_client "$out" "connected: keydecided protocol 1"
check python_client "$out" "languages en,zh"
check python_client "$out" "[tomo] tomorrow"
check python_client "$out" "refused as expected: bad_request"
out=$(/usr/bin/python3 "$PY_CLIENT" --socket "$SOCK" --lang zh "nihao")
check python_client_zh "$out" "[nihao] 你好"

kill -TERM $PID
rc=0
wait $PID || rc=$?
[[ $rc == 0 ]] || { echo "FAIL: daemon exit status $rc after SIGTERM"; exit 1; }
[[ ! -e $SOCK ]] || { echo "FAIL: socket left behind"; exit 1; }

# A local stranger (nobody) squatting a socket in a folder anyone may write: neither client
# sends it a byte, and the daemon refuses to put its own socket in such a folder.
if [[ $(id -u) == 0 ]] && command -v setpriv >/dev/null; then
  SQ=$(mktemp -d /tmp/kd-squat.XXXXXX)
  chmod 0777 "$SQ"
  setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/bin/python3 -c '
import select, socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1] + "/k.sock")
s.listen(8)
open(sys.argv[1] + "/ready", "w").close()
got = 0
while select.select([s], [], [], 3)[0]:
    c, _ = s.accept()
    c.settimeout(1)
    try:
        while True:
            b = c.recv(4096)
            if not b:
                break
            got += len(b)
    except OSError:
        pass
open(sys.argv[1] + "/count", "w").write(str(got))
' "$SQ" &
  SQPID=$!
  for _ in $(seq 1 100); do [[ -e $SQ/ready ]] && break; sleep 0.05; done
  if "$C_CLIENT" --socket "$SQ/k.sock" "my pin is 4711" 2>"$WORK/err"; then
    echo "FAIL: c_client talked to a squatter"; exit 1
  fi
  check c_client_squatter "$(cat "$WORK/err")" "refusing to talk to it"
  if /usr/bin/python3 "$PY_CLIENT" --socket "$SQ/k.sock" "my pin is 4711" 2>"$WORK/err"; then
    echo "FAIL: python_client talked to a squatter"; exit 1
  fi
  check python_client_squatter "$(cat "$WORK/err")" "refusing it"
  wait $SQPID
  [[ $(cat "$SQ/count") == 0 ]] || { echo "FAIL: the squatter received $(cat "$SQ/count") bytes"; exit 1; }
  rc=0
  "$KEYDECIDED" --socket "$SQ/d.sock" --model-dir "$MODELS" --model none --quiet \
    2>"$WORK/err" || rc=$?
  [[ $rc == 1 ]] || { echo "FAIL: keydecided in a 0777 folder: exit status $rc"; exit 1; }
  check keydecided_open_folder "$(cat "$WORK/err")" "writable by other users and not sticky"
  rm -rf "$SQ"
fi

# A language asked for that cannot be opened: exit 1 at start, a clear message, no socket.
rc=0
"$KEYDECIDED" --socket "$SOCK" --model-dir "$MODELS" --model none --lang en,xx \
  2>"$WORK/err" || rc=$?
[[ $rc == 1 ]] || { echo "FAIL: --lang en,xx exit status $rc"; exit 1; }
check keydecided_lang_xx "$(cat "$WORK/err")" "language 'xx'"
[[ ! -e $SOCK ]] || { echo "FAIL: socket made for a daemon that could not start"; exit 1; }
echo "c_api_examples_test: ok"
