#!/usr/bin/env node
// Readings from npm pinyin-pro for the jieba words that libime's sc.dict has no reading for,
// written in sc.dict's text format ("WORD pin'yin 0", toneless, ü as v) so that
// scripts/build-lexicon-zh.sh can pass both files to `keydecide lexicon build --lang zh`.
// Only words made entirely of Han characters get one (one syllable per character).
//
// Usage: node scripts/zh-readings-pinyin-pro.js PINYIN_PRO_DIR JIEBA_DICT SC_DICT_TXT OUT
'use strict';
const fs = require('fs');
const path = require('path');

const [proDir, jiebaPath, scPath, outPath] = process.argv.slice(2);
if (!outPath) {
  console.error('usage: zh-readings-pinyin-pro.js PINYIN_PRO_DIR JIEBA_DICT SC_DICT_TXT OUT');
  process.exit(2);
}
const { pinyin } = require(path.resolve(proDir));

const lines = (file) => fs.readFileSync(file, 'utf8').split('\n');
const known = new Set();
for (const line of lines(scPath)) {
  const word = line.split(/[ \t]/)[0];
  if (word) known.add(word);
}
const han = /^\p{Script=Han}+$/u;
const syllable = /^[a-z]+$/;
const out = [];
const seen = new Set();
let missing = 0;
let skipped = 0;
for (const line of lines(jiebaPath)) {
  const word = line.split(/[ \t]/)[0];
  if (!word || known.has(word) || seen.has(word)) continue;
  seen.add(word);
  missing++;
  const chars = [...word];
  const syllables = han.test(word) ? pinyin(word, { toneType: 'none', type: 'array', v: true }) : [];
  if (syllables.length !== chars.length || !syllables.every((s) => syllable.test(s))) {
    skipped++;
    continue;
  }
  out.push(`${word} ${syllables.join("'")} 0`);
}
fs.writeFileSync(outPath, out.length ? out.join('\n') + '\n' : '');
console.log(`pinyin-pro: ${missing} jieba words without an sc.dict reading, ` +
            `${out.length} readings written, ${skipped} skipped (not all Han)`);
