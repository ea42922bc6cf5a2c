# End-to-end test of the keydecide CLI: lexicon build, predict, replay, type (scripted),
# info, quantize, bench, and clear errors for bad input. Run by ctest with -P.

function(run_ok)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(OUT "${out}" PARENT_SCOPE)
endfunction()

function(expect_contains haystack needle)
  string(FIND "${haystack}" "${needle}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected '${needle}' in:\n${haystack}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(LEX ${WORK}/fixture.kdlex)

run_ok(${KEYDECIDE} lexicon build --input ${FIXTURES}/tiny_corpus.txt:2.0 --out ${LEX} --min-count 1)
expect_contains("${OUT}" "words")

set(ENGINE --model-dir ${MODELS} --lexicon ${LEX} --model none)
run_ok(${KEYDECIDE} predict ${ENGINE} --context "we will meet at the" --prefix "sta" --json)
expect_contains("${OUT}" "\"text\":\"station\"")
expect_contains("${OUT}" "\"timings_us\"")

run_ok(${KEYDECIDE} replay ${ENGINE} --text ${FIXTURES}/tiny_corpus.txt --json)
foreach(key ksr ksr_word_only next_word_top1 next_word_top3 keystrokes characters latency_us p50 p95 p99)
  expect_contains("${OUT}" "\"${key}\"")
endforeach()

file(WRITE ${WORK}/keys.txt "the meetimg\t")
execute_process(COMMAND ${KEYDECIDE} type ${ENGINE} INPUT_FILE ${WORK}/keys.txt
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
expect_contains("${out}" "key=g composition=meetimg candidates=meeting")
expect_contains("${out}" "key=\\t composition= candidates=")

run_ok(${KEYDECIDE} info ${ENGINE})
expect_contains("${OUT}" "baseline-unigram")

# The bundled language pack: lexicon and model load, the decision carries the heads.
run_ok(${KEYDECIDE} predict --model-dir ${MODELS} --context "see you" --prefix "tomo" --json)
expect_contains("${OUT}" "\"text\":\"tomorrow\"")
foreach(key popup autocorrect intent probabilities "\"has_model\":true")
  expect_contains("${OUT}" "${key}")
endforeach()
run_ok(${KEYDECIDE} info --model-dir ${MODELS})
expect_contains("${OUT}" "scorer:          model")

# A file of contexts (the phrase set's scorer): one JSON line each, in order, \n a line break;
# the teacher's phrase comes back.
file(WRITE ${WORK}/contexts.txt "Happy new \nThanks.\\nSee you \n")
run_ok(${KEYDECIDE} predict --model-dir ${MODELS} --contexts ${WORK}/contexts.txt -k 5 --json)
expect_contains("${OUT}" "{\"candidates\":[")
expect_contains("${OUT}" "\"year\"")
expect_contains("${OUT}" "\"context\":\"Thanks.\\nSee you \"")
execute_process(COMMAND ${KEYDECIDE} predict --model-dir ${MODELS} --contexts ${WORK}/contexts.txt
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "--contexts without --json: expected exit 2, got ${rc}: ${err}")
endif()

# A damaged lexicon: a clear error and a non-zero exit, never a crash.
execute_process(COMMAND ${CMAKE_COMMAND} -E echo_append "" OUTPUT_FILE ${WORK}/empty.kdlex)
foreach(bad ${WORK}/empty.kdlex ${FIXTURES}/tiny_corpus.txt /nonexistent.kdlex)
  execute_process(COMMAND ${KEYDECIDE} predict --model-dir ${MODELS} --lexicon ${bad} --prefix x
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "expected exit 1 for ${bad}, got ${rc}: ${err}")
  endif()
  expect_contains("${err}" "cannot open the engine")
endforeach()

# Quantize the bundled float model (4-bit, with an agreement check on a few keystrokes) and
# load the result; its report is JSON.
run_ok(${KEYDECIDE} quantize ${MODELS}/en/model.safetensors ${WORK}/q4.safetensors --bits 4
       --group 32 --text ${FIXTURES}/tiny_corpus.txt --max-chars 300 --report ${WORK}/q4.json
       --model-dir ${MODELS})
expect_contains("${OUT}" "agreement with")
file(READ ${WORK}/q4.json report)
foreach(key output_bytes relative_error ranking_top1 popup autocorrect intent max_score_error)
  expect_contains("${report}" "\"${key}\"")
endforeach()
run_ok(${KEYDECIDE} info --model-dir ${MODELS} --model ${WORK}/q4.safetensors)
expect_contains("${OUT}" "model weights:   q4g32+q8")
# --compare-only writes nothing and compares two existing files: a model agrees with itself.
file(SHA256 ${WORK}/q4.safetensors q4_before)
run_ok(${KEYDECIDE} quantize ${WORK}/q4.safetensors ${WORK}/q4.safetensors --compare-only
       --text ${FIXTURES}/tiny_corpus.txt --max-chars 300 --model-dir ${MODELS})
expect_contains("${OUT}" "ranking top-1 1.0000, popup 1.0000")
file(SHA256 ${WORK}/q4.safetensors q4_after)
if(NOT q4_before STREQUAL q4_after)
  message(FATAL_ERROR "quantize --compare-only changed its output file")
endif()
execute_process(COMMAND ${KEYDECIDE} quantize ${WORK}/q4.safetensors ${WORK}/q4.safetensors
                --compare-only RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "quantize --compare-only without --text: expected exit 2, got ${rc}: ${err}")
endif()

# Benchmarks run and report what they promise (no timing is asserted).
run_ok(${KEYDECIDE} bench --shape S1 --weights q8 --iterations 3 --json)
foreach(key "\"a\"" "\"b\"" "\"c\"" p50_us p95_us)
  expect_contains("${OUT}" "${key}")
endforeach()
run_ok(${KEYDECIDE} bench --model-dir ${MODELS} --text ${FIXTURES}/tiny_corpus.txt --decisions 300
       --no-scaling --json --plot ${WORK}/bench.png)
foreach(key decision_us stages_us candidates cold_start_ms rss_mb p999)
  expect_contains("${OUT}" "${key}")
endforeach()
if(NOT EXISTS ${WORK}/bench.png)
  message(FATAL_ERROR "bench --plot wrote no ${WORK}/bench.png")
endif()

# Bad input: a file that is not a model, an unknown SIMD target.
execute_process(COMMAND ${KEYDECIDE} quantize ${FIXTURES}/tiny_corpus.txt ${WORK}/x.safetensors
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "quantize of a text file: expected exit 1, got ${rc}: ${err}")
endif()
expect_contains("${err}" "quantize")
execute_process(COMMAND ${CMAKE_COMMAND} -E env KEYDECIDE_SIMD=no-such-isa ${KEYDECIDE} info
                --model-dir ${MODELS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "KEYDECIDE_SIMD=no-such-isa: expected exit 1, got ${rc}: ${err}")
endif()
expect_contains("${err}" "not available here")

# eval autocorrect / intent with the bundled English model: --threshold and --app are checked.
file(WRITE ${WORK}/typos.tsv "teh\tthe\nyuo\tyou\n")
file(WRITE ${WORK}/typo_text.txt "I think the dog saw you at the station.\n")
run_ok(${KEYDECIDE} eval autocorrect --model-dir ${MODELS} --typos ${WORK}/typos.tsv
       --text ${WORK}/typo_text.txt --threshold 0.4 --json)
expect_contains("${OUT}" "\"typos\": 3")
file(WRITE ${WORK}/intent.tsv "prose\tI think the dog saw you at the station.\ncommand\t$ sudo apt-get install kino\n")
run_ok(${KEYDECIDE} eval intent --model-dir ${MODELS} --labeled ${WORK}/intent.tsv --app editor --json)
expect_contains("${OUT}" "\"total\": 2")
foreach(bad "autocorrect;--typos;${WORK}/typos.tsv;--text;${WORK}/typo_text.txt;--threshold;1.5"
            "intent;--labeled;${WORK}/intent.tsv;--app;typewriter")
  execute_process(COMMAND ${KEYDECIDE} eval ${bad} --model-dir ${MODELS}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "eval ${bad}: expected a refusal, got exit 0")
  endif()
  list(GET bad -1 value)
  expect_contains("${err}" "${value}")  # the message names the refused value
endforeach()

# Chinese: the bundled pinyin-keyed lexicon through the same commands (lexicon only).
run_ok(${KEYDECIDE} predict --model-dir ${MODELS} --lang zh --prefix nihao)
expect_contains("${OUT}" "你好")

# eval pinyin: common phrases typed letter by letter are converted; a malformed line is refused
# with its number.
file(WRITE ${WORK}/pinyin.tsv "你好\tnihao\tni hao\n\n中国\tzhongguo\tzhong guo\n我们的中国\twomendezhongguo\two men de zhong guo\n")
run_ok(${KEYDECIDE} eval pinyin --model-dir ${MODELS} --tsv ${WORK}/pinyin.tsv --json)
foreach(key sentence_top5 char_accuracy keystroke_p50_us keystroke_p95_us sentence_p50_us
            sentence_p95_us rss_mb)
  expect_contains("${OUT}" "\"${key}\"")
endforeach()
expect_contains("${OUT}" "\"lines\": 3")
expect_contains("${OUT}" "\"sentence_top1\": 1.0")
file(WRITE ${WORK}/pinyin_bad.tsv "你好\tnihao\tni hao\n中国\tzhong guo\tzhong guo\n")
execute_process(COMMAND ${KEYDECIDE} eval pinyin --model-dir ${MODELS} --tsv ${WORK}/pinyin_bad.tsv
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "eval pinyin of a malformed file: expected exit 1, got ${rc}: ${err}")
endif()
expect_contains("${err}" "line 2")
# A line of 302 letters (a long sentence typed without a pause) is converted; one of 1,025 is
# refused, naming the cap.
string(REPEAT "womendezhongguo" 20 long_letters)
string(REPEAT "wo men de zhong guo " 20 long_syllables)
string(REPEAT "我们的中国" 20 long_hanzi)
file(WRITE ${WORK}/pinyin_long.tsv "${long_hanzi}你\t${long_letters}ni\t${long_syllables}ni\n")
run_ok(${KEYDECIDE} eval pinyin --model-dir ${MODELS} --tsv ${WORK}/pinyin_long.tsv --json)
expect_contains("${OUT}" "\"lines\": 1")
string(REPEAT "a" 1025 too_long)
file(WRITE ${WORK}/pinyin_too_long.tsv "啊\t${too_long}\ta\n")
execute_process(COMMAND ${KEYDECIDE} eval pinyin --model-dir ${MODELS} --tsv
                ${WORK}/pinyin_too_long.tsv RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "eval pinyin of a 1,025-letter line: expected exit 1, got ${rc}: ${err}")
endif()
expect_contains("${err}" "more than 1024 letters")

# type --lang zh (scripted): syllable breaks in the preedit, Space takes the first candidate.
file(WRITE ${WORK}/zh_keys.txt "zhongguo ")
execute_process(COMMAND ${KEYDECIDE} type --model-dir ${MODELS} --lang zh
                INPUT_FILE ${WORK}/zh_keys.txt RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "type --lang zh failed (${rc}): ${out}")
endif()
expect_contains("${out}" "key=o composition=zhongguo preedit=zhong'guo candidates=中国")
expect_contains("${out}" "key=  composition= candidates=")

# Files that are not what they claim (issue 19): a FIFO as a model, lexicon, layout or text is
# refused at once (a FIFO with no writer reads as an empty text), never waited on; /dev/zero is
# refused; a FIFO or a pipe that is written to is read.
function(expect_refused what)
  execute_process(COMMAND ${ARGN} TIMEOUT 20 RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "${what}: expected exit 1 at once, got '${rc}': ${err}")
  endif()
  set(ERR "${err}" PARENT_SCOPE)
endfunction()
set(FIFO ${WORK}/input.fifo)
execute_process(COMMAND mkfifo ${FIFO} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mkfifo ${FIFO} failed")
endif()
foreach(flag --model --lexicon --layout)
  expect_refused("${flag} FIFO" ${KEYDECIDE} predict --model-dir ${MODELS} ${flag} ${FIFO}
                 --prefix tomo)
  expect_contains("${ERR}" "${FIFO} is a FIFO or pipe, not a regular file")
endforeach()
expect_refused("--text FIFO" ${KEYDECIDE} replay ${ENGINE} --text ${FIFO})
expect_contains("${ERR}" "${FIFO} is empty")
expect_refused("--text /dev/zero" ${KEYDECIDE} replay ${ENGINE} --text /dev/zero)
expect_contains("${ERR}" "/dev/zero is a character device")
run_ok(${KEYDECIDE} replay ${ENGINE} --text ${FIXTURES}/tiny_corpus.txt)
set(from_file "${OUT}")
string(REGEX REPLACE "latency[^\n]*" "" from_file "${from_file}")
foreach(writer "cat ${FIXTURES}/tiny_corpus.txt > ${FIFO} & exec \"$0\" \"$@\" --text ${FIFO}"
               "exec \"$0\" \"$@\" --text <(cat ${FIXTURES}/tiny_corpus.txt)")
  execute_process(COMMAND bash -c "${writer}" ${KEYDECIDE} replay ${ENGINE} TIMEOUT 60
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "latency[^\n]*" "" out "${out}")
  if(NOT rc EQUAL 0 OR NOT out STREQUAL from_file)
    message(FATAL_ERROR "replay --text from a pipe (${writer}): '${rc}' ${err}\n${out}")
  endif()
endforeach()
file(REMOVE ${FIFO})
