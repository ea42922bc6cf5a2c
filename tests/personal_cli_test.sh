#!/usr/bin/env bash
# keydecide personal list|forget|export|import|clear and eval personal, end to end, on stores of
# their own (never the person's). Usage: personal_cli_test.sh KEYDECIDE FIXTURES MODELS
set -euo pipefail
KD=$1 FIXTURES=$2 MODELS=$3
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
S="$DIR/user.db"
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > "$DIR/in.json" <<'EOF'
{"format": "keydecide-user-store", "version": 1, "exported_at": 0,
 "words": [{"language": "en", "word": "Zorblax", "count": 3, "picks": 1, "weight": 2.5,
            "first_time": 1000, "last_time": 2000},
           {"language": "en", "word": "Quoggle", "count": 1, "picks": 0, "weight": 1,
            "first_time": 5000, "last_time": 5000}],
 "pairs": [{"language": "en", "previous": "Mr", "word": "Zorblax", "count": 2, "weight": 1.5,
            "last_time": 2000}]}
EOF
"$KD" personal import --store "$S" "$DIR/in.json" | grep -q "holds 2 words" || fail import
"$KD" personal list --store "$S" | grep -Eq "^en +Zorblax +3 +1 +1970-01-01T00:16:40Z" || fail list
"$KD" personal export --store "$S" --out "$DIR/out.json"
grep -q '"Quoggle"' "$DIR/out.json" || fail export
"$KD" personal list --store "$S" --json | grep -q '"keydecide-user-store"' || fail "list --json"
"$KD" personal forget --store "$S" zorblax | grep -q "forgot 2 " || fail "forget word"
"$KD" personal list --store "$S" | grep -q Zorblax && fail "forgotten word still listed"
"$KD" personal forget --store "$S" --from 4000 --to 6000 | grep -q "forgot 1 " || fail "forget range"
"$KD" personal import --store "$S" "$DIR/out.json" >/dev/null
"$KD" personal clear --store "$S" 2>/dev/null && fail "clear without --yes"
"$KD" personal clear --store "$S" --yes >/dev/null
"$KD" personal list --store "$S" | grep -q "^0 words" || fail clear
echo '{"format": "something else", "version": 1, "words": [], "pairs": []}' > "$DIR/bad.json"
"$KD" personal import --store "$S" "$DIR/bad.json" 2>"$DIR/err" && fail "bad import accepted"
grep -q "format" "$DIR/err" || fail "bad import message"

# Shortcuts: added in any case, listed with escaped new lines, refused when bad, in the export,
# removed, and cleared with everything.
"$KD" personal shortcut add --store "$S" OMW "On my way!" | grep -q "shortcut added" || fail "shortcut add"
"$KD" personal shortcut add --store "$S" "myaddr" $'1 Main St\nSpringfield' >/dev/null
"$KD" personal shortcut add --store "$S" "two words" x 2>"$DIR/err" && fail "bad trigger accepted"
grep -q "trigger" "$DIR/err" || fail "bad trigger message"
"$KD" personal shortcut list --store "$S" | grep -Fq 'omw              "On my way!"' || fail "shortcut list"
"$KD" personal shortcut list --store "$S" | grep -Fq '"1 Main St\nSpringfield"' || fail "shortcut list new line"
"$KD" personal export --store "$S" | grep -q '"trigger": "omw"' || fail "shortcut export"
"$KD" personal shortcut remove --store "$S" Omw nothing | grep -q "removed 1 shortcut$" || fail "shortcut remove"
"$KD" personal clear --store "$S" --yes >/dev/null
"$KD" personal shortcut list --store "$S" | grep -q "^0 shortcuts" || fail "clear kept shortcuts"

# The demo with the person's store (issue 50): a shortcut fires as its word ends, what is typed
# is learned (written when the demo ends), and predict then ranks with it.
"$KD" personal shortcut add --store "$S" omw "On my way!" >/dev/null
printf 'omw and Zwoggle went on. Zwoggle came back. The end. ' \
  | "$KD" type --model-dir "$MODELS" --personal --user-store "$S" > "$DIR/type.txt" 2>"$DIR/type.err" \
  || fail "type --personal: $(cat "$DIR/type.err")"
grep -Fq 'key=  composition= candidates=' "$DIR/type.txt" || fail "type --personal output"
grep -Fq 'text=On my way! ' "$DIR/type.txt" || fail "type --personal: the shortcut did not fire"
grep -q "personal: on" "$DIR/type.err" || fail "type --personal: no word of the store"
"$KD" personal list --store "$S" | grep -q Zwoggle || fail "type --personal learned nothing"
"$KD" personal list --store "$S" | grep -qi "omw" && fail "type --personal learned a trigger"
"$KD" predict --model-dir "$MODELS" --personal --user-store "$S" --no-learn --prefix zwo \
  | grep -q "^1\. Zwoggle" || fail "predict --personal does not rank with the store"
"$KD" predict --model-dir "$MODELS" --prefix zwo | grep -q "Zwoggle" && fail "predict without --personal"
"$KD" personal clear --store "$S" --yes >/dev/null

# eval personal: the keys, on the fixture text (its first part learned, the rest typed).
head -c 1200 "$FIXTURES/tiny_corpus.txt" > "$DIR/a.txt"
tail -c +1201 "$FIXTURES/tiny_corpus.txt" > "$DIR/b.txt"
TMPDIR="$DIR" "$KD" eval personal --model-dir "$MODELS" --history "$DIR/a.txt" --test "$DIR/b.txt" \
  --general "$DIR/a.txt" --json > "$DIR/eval.json"
for key in ksr_before ksr_after general_ksr_before general_ksr_after learned_words; do
  grep -q "\"$key\"" "$DIR/eval.json" || fail "eval personal: no $key"
done
ls "$DIR"/keydecide_eval_* 2>/dev/null && fail "eval personal left its store behind"

# Fine-tuning (issue 20): eval personal --finetune adds the replays after one round, in both
# languages; a round on a store's recent text from the CLI.
TMPDIR="$DIR" "$KD" eval personal --model-dir "$MODELS" --history "$DIR/a.txt" --test "$DIR/b.txt" \
  --general "$DIR/a.txt" --finetune --json > "$DIR/ft.json"
for key in ksr_after_finetune general_ksr_after_finetune finetune_seconds; do
  grep -q "\"$key\"" "$DIR/ft.json" || fail "eval personal --finetune: no $key"
done
"$KD" personal clear --store "$S" --yes >/dev/null
"$KD" personal finetune --store "$S" --model-dir "$MODELS" | grep -q "^0 recent words" \
  || fail "finetune on an empty store"
printf '%s\t%s\t%s\n' 我们走吧 womenzouba "wo men zou ba" 你好世界 nihaoshijie "ni hao shi jie" \
  > "$DIR/zh.tsv"
TMPDIR="$DIR" "$KD" eval personal --lang zh --model-dir "$MODELS" --history "$DIR/zh.tsv" \
  --test "$DIR/zh.tsv" --general "$DIR/zh.tsv" --finetune --fine-tune-weight 0.2 --json \
  > "$DIR/zh_ft.json"
for key in sentence_top1_after_finetune general_sentence_top1_after_finetune finetune; do
  grep -q "\"$key\"" "$DIR/zh_ft.json" || fail "eval personal --lang zh --finetune: no $key"
done
grep -q '"fine_tune_weight": 0.2' "$DIR/zh_ft.json" || fail "zh --fine-tune-weight"
# A weight out of range is refused, in both languages, never taken for the default.
for lang in en zh; do
  TMPDIR="$DIR" "$KD" eval personal --lang $lang --model-dir "$MODELS" --history "$DIR/zh.tsv" \
    --test "$DIR/zh.tsv" --finetune --fine-tune-weight -1 2>"$DIR/err" \
    && fail "$lang --fine-tune-weight -1 accepted"
  grep -q "fine_tune_weight must be in 0..10" "$DIR/err" || fail "$lang --fine-tune-weight message"
done
"$KD" personal finetune --store "$S" --model-dir "$MODELS" --lang zh | grep -q "^0 recent words" \
  || fail "zh finetune on an empty store"
echo "personal CLI: ok"
