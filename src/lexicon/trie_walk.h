// Walking down the lexicon trie byte by byte, with a budget on the children looked at, for the
// searches that follow many constrained paths at once (pinyin syllables, lattices) and must stay
// bounded on hostile or unlucky input.

#ifndef KEYDECIDE_LEXICON_TRIE_WALK_H_
#define KEYDECIDE_LEXICON_TRIE_WALK_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "lexicon/lexicon_format.h"

namespace keydecide {

inline constexpr uint32_t kNoTrieNode = 0xFFFFFFFFu;

// The node reached from `node` by `bytes`, or kNoTrieNode when some byte has no child. Each child
// looked at costs one unit of *budget; when it runs out, returns kNoTrieNode and sets
// *exhausted. Children are scanned linearly: they are few (at most 26 letters below a pinyin
// node) and contiguous, so a scan beats a binary search here.
inline uint32_t TrieDescend(std::span<const lexicon::TrieNode> nodes, uint32_t node,
                            std::string_view bytes, size_t* budget, bool* exhausted) {
  for (const char c : bytes) {
    const lexicon::TrieNode& parent = nodes[node];
    const uint32_t end = parent.first_child + parent.child_count;
    uint32_t found = kNoTrieNode;
    for (uint32_t child = parent.first_child; child < end; ++child) {
      if (*budget == 0) {
        *exhausted = true;
        return kNoTrieNode;
      }
      --*budget;
      if (nodes[child].label == static_cast<uint8_t>(c)) {
        found = child;
        break;
      }
    }
    if (found == kNoTrieNode) return kNoTrieNode;
    node = found;
  }
  return node;
}

}  // namespace keydecide

#endif  // KEYDECIDE_LEXICON_TRIE_WALK_H_
