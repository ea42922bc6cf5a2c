#!/usr/bin/env bash
# The CLI's conventions (issue 17): --version, exit status 2 for a usage error and 1 for a
# failure, errors as one JSON object on stdout under --json, "-" as standard input, and the
# bash completion offering subcommands and flags from the programs' own --help.
# usage: cli_conventions_test.sh KEYDECIDE KEYDECIDED COMPLETION MODELS_DIR FIXTURE_TEXT
set -euo pipefail
KD=$1 KDD=$2 COMPLETION=$3 MODELS=$4 TEXT=$5
fail() { echo "FAIL: $*"; exit 1; }
status() { set +e; "$@" >/dev/null 2>&1; local rc=$?; set -e; echo $rc; }

[[ $("$KD" --version) =~ ^keydecide\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "keydecide --version"
[[ $("$KDD" --version) =~ ^keydecided\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "keydecided --version"
[[ $(status "$KD" --no-such-flag) == 2 ]] || fail "an unknown flag must exit 2"
[[ $(status "$KD" predict --max-candidates 201) == 2 ]] || fail "a value out of range must exit 2"
[[ $(status "$KD") == 2 ]] || fail "no subcommand must exit 2"
[[ $(status "$KDD" --no-such-flag) == 2 ]] || fail "keydecided: an unknown flag must exit 2"
[[ $(status "$KD" replay --model-dir "$MODELS" --text /nonexistent/file) == 1 ]] ||
  fail "a missing file must exit 1"

# Under --json the error is JSON on stdout, whatever failed.
set +e
out=$("$KD" replay --model-dir "$MODELS" --text /nonexistent/file --json 2>/dev/null)
rc=$?
set -e
[[ $rc == 1 ]] || fail "--json failure exit $rc"
/usr/bin/python3 -c 'import json,sys; e=json.loads(sys.argv[1])["error"];
assert e["kind"] == "NotFound" and "/nonexistent/file" in e["message"], e' "$out" ||
  fail "--json error: $out"
set +e
out=$("$KD" predict --json --bogus 2>/dev/null)
rc=$?
set -e
[[ $rc == 2 ]] || fail "--json usage error exit $rc"
/usr/bin/python3 -c 'import json,sys; assert json.loads(sys.argv[1])["error"]["kind"] == "Usage"' \
  "$out" || fail "--json usage error: $out"

# "-" reads standard input: the same replay as from the file.
a=$("$KD" replay --model-dir "$MODELS" --model none --text "$TEXT" --json | grep '"ksr"')
b=$("$KD" replay --model-dir "$MODELS" --model none --text - --json <"$TEXT" | grep '"ksr"')
[[ -n $a && $a == "$b" ]] || fail "replay --text - gave '$b', the file '$a'"

# Completion: subcommands, a subcommand's subcommands, flags.
complete_words() {  # the words typed so far -> COMPREPLY
  # shellcheck disable=SC1090
  source "$COMPLETION"
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="$*"
  COMP_POINT=${#COMP_LINE}
  _keydecide
  printf '%s\n' "${COMPREPLY[@]}"
}
_init_completion() {  # the bash-completion helper, for a shell without the package loaded
  cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
}
_filedir() { :; }
grep -qx replay <<<"$(complete_words "$KD" re)" || fail "completion of 're'"
grep -qx pinyin <<<"$(complete_words "$KD" eval pi)" || fail "completion of 'eval pi'"
grep -qx -- --max-chars <<<"$(complete_words "$KD" replay --max-)" || fail "completion of --max-"
grep -qx zh <<<"$(complete_words "$KD" predict --lang "")" || fail "completion of --lang"
echo "cli_conventions: ok"
