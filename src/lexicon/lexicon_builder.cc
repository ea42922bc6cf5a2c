#include "lexicon/lexicon_builder.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "lexicon/lexicon_format.h"
#include "text/letter_case.h"
#include "text/tokenizer.h"
#include "text/utf8.h"

namespace keydecide {

using lexicon::Entry;
using lexicon::TrieNode;
using lexicon::Variant;

namespace {

struct KeyInfo {
  std::string key;
  uint64_t count = 0;
  uint64_t seen = 0;  // occurrences, unweighted (rounded per spelling, as the count is)
  std::vector<std::pair<std::string, uint64_t>> spellings;  // most frequent first
};

// Build-time trie with owned children; flattened breadth-first into TrieNode rows.
struct BuildNode {
  std::map<uint8_t, std::unique_ptr<BuildNode>> children;
  uint32_t entry = lexicon::kNoEntry;
  uint32_t max_count = 0;
};

uint32_t ClampCount(uint64_t c) {
  return static_cast<uint32_t>(std::min<uint64_t>(c, 0xFFFFFFFFu));
}

uint32_t ComputeMaxCount(BuildNode* node, const std::vector<KeyInfo>& keys) {
  uint32_t best = node->entry == lexicon::kNoEntry ? 0 : ClampCount(keys[node->entry].count);
  for (auto& [label, child] : node->children) {
    best = std::max(best, ComputeMaxCount(child.get(), keys));
  }
  node->max_count = best;
  return best;
}

template <typename T>
void AppendRaw(const std::vector<T>& items, std::string* out) {
  const size_t at = out->size();
  out->resize(at + items.size() * sizeof(T));
  if (!items.empty()) std::memcpy(out->data() + at, items.data(), items.size() * sizeof(T));
}

using Counts = std::unordered_map<std::string, LexiconBuilder::Count>;
using Weights = std::unordered_map<std::string, double>;

// Adds one source's votes: each key's spellings by their share of the source's voting
// occurrences of the key, weighted by log(1 + those occurrences) (a source that writes the
// word once decides less than one that writes it often; one that writes it 5,000 times not
// 3,000 times more than one that writes it 1,500).
void AddSourceVotes(const Weights& cased, Weights* spelling_votes, Weights* key_votes) {
  Weights per_key;
  for (const auto& [spelling, weighted] : cased) per_key[ToLowerUtf8(spelling)] += weighted;
  for (const auto& [spelling, weighted] : cased) {
    const double total = per_key[ToLowerUtf8(spelling)];
    (*spelling_votes)[spelling] += std::log1p(total) * weighted / total;
  }
  for (const auto& [key, total] : per_key) (*key_votes)[key] += std::log1p(total);
}

// The keys (lower-cased spellings) whose count and occurrences reach options.min_count, each
// with its spellings, most frequent first (ties by key, so the output is deterministic), at
// most options.max_words. A key with votes has the spellings that got votes, each counted
// as its share of the votes times the key's count; a key without (every occurrence began a
// sentence, or the voting ones' weighted counts round to 0) has its spellings as counted.
std::vector<KeyInfo> RankedKeys(const Counts& counts, const Counts& keyed_counts,
                                const Weights& spelling_votes, const Weights& key_votes,
                                const LexiconBuilder::Options& options) {
  std::unordered_map<std::string, KeyInfo> by_key;
  auto add = [&](std::string key, std::string spelling, const LexiconBuilder::Count& tally) {
    const uint64_t count = static_cast<uint64_t>(std::llround(tally.weighted));
    if (count == 0 || key.size() > lexicon::kMaxKeyBytes) return;
    KeyInfo& info = by_key[key];
    info.count += count;
    info.seen += static_cast<uint64_t>(std::llround(tally.seen));
    info.spellings.emplace_back(std::move(spelling), count);
  };
  for (const auto& [spelling, tally] : counts) add(ToLowerUtf8(spelling), spelling, tally);
  for (auto& [key, info] : by_key) {
    const auto votes = key_votes.find(key);
    if (votes == key_votes.end()) continue;
    std::vector<std::pair<std::string, uint64_t>> voted;
    for (auto& [spelling, count] : info.spellings) {
      const auto vote = spelling_votes.find(spelling);
      if (vote == spelling_votes.end()) continue;  // seen only where a sentence began
      const double share = vote->second / votes->second;
      const long long voted_count = std::llround(share * static_cast<double>(info.count));
      voted.emplace_back(std::move(spelling), static_cast<uint64_t>(std::max(1LL, voted_count)));
    }
    // Empty when the voting spellings' weighted counts rounded to 0 (a weight below 1).
    if (!voted.empty()) info.spellings = std::move(voted);
  }
  for (const auto& [id, tally] : keyed_counts) {  // key + '\0' + spelling
    const size_t nul = id.find('\0');
    add(id.substr(0, nul), id.substr(nul + 1), tally);
  }
  std::vector<KeyInfo> keys;
  for (auto& [key, info] : by_key) {
    if (info.count < options.min_count || info.seen < options.min_count) continue;
    info.key = key;
    keys.push_back(std::move(info));
  }
  std::sort(keys.begin(), keys.end(), [](const KeyInfo& a, const KeyInfo& b) {
    return a.count != b.count ? a.count > b.count : a.key < b.key;
  });
  if (keys.size() > options.max_words) keys.resize(options.max_words);
  return keys;
}

// The string pool, entries and variants of the file.
struct Tables {
  std::string pool;
  std::vector<Entry> entries;
  std::vector<Variant> variants;
  uint64_t total = 0;
};

// Sorts each key's spellings (most frequent first) and keeps those the options allow.
Tables MakeTables(std::vector<KeyInfo>* keys, const LexiconBuilder::Options& options) {
  Tables t;
  for (KeyInfo& info : *keys) {
    std::sort(info.spellings.begin(), info.spellings.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    Entry e{};
    e.key_offset = static_cast<uint32_t>(t.pool.size());
    e.key_length = static_cast<uint16_t>(info.key.size());
    t.pool += info.key;
    e.count = ClampCount(info.count);
    e.first_variant = static_cast<uint32_t>(t.variants.size());
    for (const auto& [spelling, count] : info.spellings) {
      const size_t kept = t.variants.size() - e.first_variant;
      const bool keep = kept == 0 || (options.keep_all_keyed_variants && kept < 0xFFFF) ||
                        (count >= options.min_variant_share * static_cast<double>(info.count) &&
                         kept < std::min<uint32_t>(options.max_variants, 0xFFFF));
      if (!keep) continue;
      Variant v{};
      v.count = ClampCount(count);
      v.length = static_cast<uint32_t>(spelling.size());
      if (spelling == info.key) {
        v.offset = e.key_offset;
      } else {
        v.offset = static_cast<uint32_t>(t.pool.size());
        t.pool += spelling;
      }
      t.variants.push_back(v);
    }
    e.variant_count = static_cast<uint16_t>(t.variants.size() - e.first_variant);
    t.entries.push_back(e);
    t.total += e.count;
  }
  return t;
}

// The trie over the keys' bytes, flattened breadth-first: each node's children are written as
// one block when the node is dequeued, ordered by max_count (descending) for the best-first
// search.
std::vector<TrieNode> FlattenTrie(const std::vector<KeyInfo>& keys) {
  BuildNode root;
  for (uint32_t id = 0; id < keys.size(); ++id) {
    BuildNode* node = &root;
    for (char c : keys[id].key) {
      auto& child = node->children[static_cast<uint8_t>(c)];
      if (!child) child = std::make_unique<BuildNode>();
      node = child.get();
    }
    node->entry = id;
  }
  ComputeMaxCount(&root, keys);
  std::vector<TrieNode> nodes;
  std::vector<const BuildNode*> queue{&root};
  nodes.push_back({0, root.entry, root.max_count, 0, 0, 0});
  for (size_t head = 0; head < queue.size(); ++head) {
    const BuildNode* node = queue[head];
    std::vector<std::pair<uint8_t, const BuildNode*>> kids;
    for (const auto& [label, child] : node->children) kids.emplace_back(label, child.get());
    std::stable_sort(kids.begin(), kids.end(), [](const auto& a, const auto& b) {
      return a.second->max_count > b.second->max_count;
    });
    nodes[head].first_child = static_cast<uint32_t>(nodes.size());
    nodes[head].child_count = static_cast<uint16_t>(kids.size());
    for (const auto& [label, child] : kids) {
      nodes.push_back({0, child->entry, child->max_count, 0, label, 0});
      queue.push_back(child);
    }
  }
  return nodes;
}

// True when tokens[i] begins a sentence: it is the text's first token, or a line break or
// one of . ! ? comes before it with only quotes and opening brackets between.
bool BeginsSentence(std::string_view text, const std::vector<Token>& tokens, size_t i) {
  for (size_t j = i; j > 0; --j) {
    const Token& before = tokens[j - 1];
    const size_t end = before.offset + before.text.size();
    if (text.substr(end, tokens[j].offset - end).find('\n') != std::string_view::npos) {
      return true;
    }
    if (before.kind != TokenKind::kPunct) return false;
    const std::string_view p = before.text;
    if (p == "." || p == "!" || p == "?" || p == "\u2026") return true;
    const bool skipped = p == "\"" || p == "'" || p == "(" || p == "[" || p == "\u201c" ||
                         p == "\u201d" || p == "\u2018" || p == "\u2019";
    if (!skipped) return false;
  }
  return true;
}

// "Word", "I'm": the first letter upper case, the rest lower case (not "NASA", "McDonald").
bool IsTitleCase(std::string_view word) {
  const std::string lower = ToLowerUtf8(word);
  return lower != word && CapitalizeUtf8(lower) == word;
}

}  // namespace

void LexiconBuilder::AddText(std::string_view text, double weight) {
  const std::string repaired = utf8::Validate(text).ok() ? std::string() : utf8::Repair(text);
  const std::string_view valid = repaired.empty() ? text : std::string_view(repaired);
  std::vector<Token> tokens;
  Tokenize(valid, &tokens);
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kWord) continue;
    std::string_view word = tokens[i].text;
    bool cased = !BeginsSentence(valid, tokens, i);
    while (!word.empty()) {  // "well-known" counts as "well" and "known"
      const size_t hyphen = word.find('-');
      const std::string_view part = word.substr(0, hyphen);
      AddSpelling(part, weight, 1, cased || !IsTitleCase(part));
      if (hyphen == std::string_view::npos) break;
      word.remove_prefix(hyphen + 1);
      cased = true;
    }
  }
}

void LexiconBuilder::AddWord(std::string_view spelling, double count) {
  AddSpelling(spelling, count, count, true);  // it ignores counts outside (0, 1e9]
}

void LexiconBuilder::AddSpelling(std::string_view spelling, double weighted, double seen,
                                 bool cased) {
  if (spelling.empty() || !utf8::Validate(spelling).ok() || !(weighted > 0) || weighted > 1e9) {
    return;
  }
  Count& tally = counts_[std::string(spelling)];
  tally.weighted += weighted;
  tally.seen += seen;
  if (cased) source_cased_[std::string(spelling)] += weighted;
}

void LexiconBuilder::EndSource() {
  AddSourceVotes(source_cased_, &spelling_votes_, &key_votes_);
  source_cased_.clear();
}

void LexiconBuilder::AddKeyedWord(std::string_view key, std::string_view spelling, double count) {
  constexpr std::string_view kSpace(" \t\r\n\0", 5);
  if (key.empty() || spelling.empty() || !utf8::Validate(key).ok() ||
      !utf8::Validate(spelling).ok() || key.find_first_of(kSpace) != std::string_view::npos ||
      spelling.find_first_of(kSpace) != std::string_view::npos || !(count > 0) || count > 1e9) {
    return;
  }
  std::string id(key);
  id += '\0';
  id += spelling;
  Count& tally = keyed_counts_[id];
  tally.weighted += count;
  tally.seen += count;
}

Status LexiconBuilder::Finish(const Options& options, std::string* out) const {
  if (options.max_words == 0) return Status::InvalidArgument("max_words is 0");
  Weights spelling_votes = spelling_votes_;
  Weights key_votes = key_votes_;
  AddSourceVotes(source_cased_, &spelling_votes, &key_votes);  // the open source, if any
  std::vector<KeyInfo> keys =
      RankedKeys(counts_, keyed_counts_, spelling_votes, key_votes, options);
  if (keys.empty()) return Status::InvalidArgument("no word reaches the minimum count");
  const Tables tables = MakeTables(&keys, options);
  const std::vector<TrieNode> nodes = FlattenTrie(keys);

  lexicon::Header header;
  header.node_count = static_cast<uint32_t>(nodes.size());
  header.entry_count = static_cast<uint32_t>(tables.entries.size());
  header.variant_count = static_cast<uint32_t>(tables.variants.size());
  header.pool_size = static_cast<uint32_t>(tables.pool.size());
  header.total_count = tables.total;
  header.language = options.language;
  header.file_size = header.expected_file_size();

  std::string payload;
  AppendRaw(nodes, &payload);
  AppendRaw(tables.entries, &payload);
  AppendRaw(tables.variants, &payload);
  payload += tables.pool;
  header.EncodeTo(out);
  *out += payload;
  lexicon::SealFile(out);
  return Status::OK();
}

}  // namespace keydecide
