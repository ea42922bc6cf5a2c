#!/usr/bin/env bash
# The examples against a real keydecided process: the C client (through the daemon and
# in-process) and the Python client; then SIGTERM must stop the daemon cleanly (exit 0,
# socket removed).
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
out=$("$C_CLIENT" --local "$MODELS" "see you tomo")
check c_client_local "$out" "[tomo] tomorrow"
out=$(/usr/bin/python3 "$PY_CLIENT" --socket "$SOCK" "see you tomo")
check python_client "$out" "connected: keydecided protocol 1"
check python_client "$out" "[tomo] tomorrow"
check python_client "$out" "refused as expected: bad_request"

kill -TERM $PID
rc=0
wait $PID || rc=$?
[[ $rc == 0 ]] || { echo "FAIL: daemon exit status $rc after SIGTERM"; exit 1; }
[[ ! -e $SOCK ]] || { echo "FAIL: socket left behind"; exit 1; }
echo "c_api_examples_test: ok"
