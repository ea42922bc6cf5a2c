#include "lexicon/lexicon.h"

#include <algorithm>
#include <vector>

#include "base/mapped_file.h"
#include "text/utf8.h"

namespace keydecide {

using lexicon::Entry;
using lexicon::TrieNode;
using lexicon::Variant;

Lexicon::~Lexicon() = default;

Status Lexicon::Open(const std::string& path, std::unique_ptr<Lexicon>* out) {
  std::unique_ptr<Lexicon> lex(new Lexicon());
  KD_RETURN_IF_ERROR(MappedFile::Open(path, &lex->file_));
  Status s = Init(lex->file_->data(), lex.get());
  if (!s.ok()) return s.Annotated(path);  // Corruption, or NotSupported for a newer version
  *out = std::move(lex);
  return Status::OK();
}

Status Lexicon::FromBytes(std::string bytes, std::unique_ptr<Lexicon>* out) {
  std::unique_ptr<Lexicon> lex(new Lexicon());
  lex->bytes_ = std::move(bytes);
  KD_RETURN_IF_ERROR(Init(lex->bytes_, lex.get()));
  *out = std::move(lex);
  return Status::OK();
}

Status Lexicon::Init(std::string_view data, Lexicon* lex) {
  KD_RETURN_IF_ERROR(lex->header_.DecodeFrom(data));
  const lexicon::Header& h = lex->header_;
  // Sections are 4-byte aligned within the file and mmap/std::string data is at least
  // 8-byte aligned, so these casts are aligned.
  lex->nodes_ = {reinterpret_cast<const TrieNode*>(data.data() + h.nodes_offset()), h.node_count};
  lex->entries_ = {reinterpret_cast<const Entry*>(data.data() + h.entries_offset()), h.entry_count};
  lex->variants_ = {reinterpret_cast<const Variant*>(data.data() + h.variants_offset()),
                    h.variant_count};
  lex->pool_ = data.substr(h.pool_offset(), h.pool_size);
  return lex->Validate();
}

// Everything the search and the accessors rely on, so that a file with a valid checksum but
// a hostile structure is refused rather than trusted:
//  - the breadth-first layout the builder writes (children blocks in node order, each node
//    the child of exactly one parent), which makes the trie a tree, so walks terminate;
//  - distinct sibling labels, and max_count never rising downwards or along siblings (the
//    best-first search's bounds depend on it);
//  - every entry reached from exactly one node, with a valid UTF-8 key of at most
//    kMaxKeyBytes; variants valid UTF-8 without white space and of bounded length.
Status Lexicon::Validate() const {
  auto bad = [](const std::string& what, uint64_t i) {
    return Status::Corruption(what + " " + std::to_string(i));
  };
  const uint64_t n = nodes_.size();
  uint64_t next_block = 1;
  std::vector<uint8_t> entry_seen(entries_.size(), 0);
  for (uint64_t i = 0; i < n; ++i) {
    const TrieNode& node = nodes_[i];
    if (node.child_count > 0) {
      // Children come after their parent (the builder's breadth-first order): every node is
      // reached from the root, and no node is its own ancestor.
      if (node.first_child != next_block || node.first_child <= i ||
          uint64_t{node.first_child} + node.child_count > n) {
        return bad("trie node has bad children:", i);
      }
      next_block += node.child_count;
      uint32_t labels[8] = {0, 0, 0, 0, 0, 0, 0, 0};  // a 256-bit set
      for (uint32_t k = 0; k < node.child_count; ++k) {
        const TrieNode& child = nodes_[node.first_child + k];
        const uint8_t label = child.label;
        if (labels[label >> 5] & (1u << (label & 31))) return bad("trie node repeats a label:", i);
        labels[label >> 5] |= 1u << (label & 31);
        if (child.max_count > node.max_count ||
            (k > 0 && child.max_count > nodes_[node.first_child + k - 1].max_count)) {
          return bad("trie node breaks the max_count order:", i);
        }
      }
    }
    if (node.entry != lexicon::kNoEntry) {
      if (node.entry >= entries_.size() || entry_seen[node.entry]) {
        return bad("trie node has a bad entry:", i);
      }
      entry_seen[node.entry] = 1;
      if (entries_[node.entry].count > node.max_count) return bad("trie node bound is low:", i);
    }
  }
  if (next_block != n) return Status::Corruption("trie has unreachable nodes");
  uint64_t total = 0;
  for (size_t e = 0; e < entries_.size(); ++e) {
    const Entry& entry = entries_[e];
    if (!entry_seen[e] || entry.key_length == 0 || entry.key_length > lexicon::kMaxKeyBytes ||
        uint64_t{entry.key_offset} + entry.key_length > pool_.size() || entry.variant_count == 0 ||
        uint64_t{entry.first_variant} + entry.variant_count > variants_.size() ||
        !utf8::Validate(Key(static_cast<uint32_t>(e))).ok()) {
      return bad("lexicon entry is malformed:", e);
    }
    total += entry.count;
  }
  KD_RETURN_IF_ERROR(ValidatePaths());
  return ValidateVariants(total);
}

// Whether `entry`'s key is path[0, n): a plain loop, keys are a few bytes (memcmp's call
// cost more than the compare when it ran per entry).
bool Lexicon::KeyIs(const Entry& entry, const char* path, size_t n) const {
  if (entry.key_length != n) return false;
  const char* key = pool_.data() + entry.key_offset;
  for (size_t i = 0; i < n; ++i) {
    if (key[i] != path[i]) return false;
  }
  return true;
}

// Depth first from the root with the labels of the path so far: every entry's key must be
// the path to its node, since Find and the searches walk the labels (fuzz/lexicon_fuzzer.cc
// found keys that were not). REQUIRES: the structure checks of Validate passed (a tree).
Status Lexicon::ValidatePaths() const {
  struct Frame {
    uint32_t next, end;  // the children of the node at this depth still to visit
  };
  constexpr size_t kMaxDepth = lexicon::kMaxKeyBytes;
  Frame stack[kMaxDepth + 1];
  char path[kMaxDepth];
  auto children = [&](const TrieNode& node) {
    return node.child_count == 0 ? Frame{0, 0}
                                 : Frame{node.first_child, node.first_child + node.child_count};
  };
  size_t depth = 0;
  stack[0] = children(nodes_[0]);
  for (;;) {
    Frame& frame = stack[depth];
    if (frame.next == frame.end) {
      if (depth == 0) return Status::OK();
      --depth;
      continue;
    }
    const TrieNode& node = nodes_[frame.next++];
    // The builder makes no node deeper than the longest key it stores.
    if (depth == kMaxDepth) return Status::Corruption("trie is deeper than the longest key");
    path[depth] = static_cast<char>(node.label);
    if (node.entry != lexicon::kNoEntry && !KeyIs(entries_[node.entry], path, depth + 1)) {
      return Status::Corruption("lexicon entry's key is not its trie path: " +
                                std::to_string(node.entry));
    }
    stack[++depth] = children(node);
  }
}

Status Lexicon::ValidateVariants(uint64_t total) const {
  for (size_t v = 0; v < variants_.size(); ++v) {
    const Variant& var = variants_[v];
    if (var.length == 0 || var.length > 4 * lexicon::kMaxKeyBytes ||
        uint64_t{var.offset} + var.length > pool_.size()) {
      return Status::Corruption("lexicon variant is out of range: " + std::to_string(v));
    }
    const std::string_view text = VariantText(var);
    if (!utf8::Validate(text).ok() || text.find_first_of(" \t\r\n") != std::string_view::npos) {
      return Status::Corruption("lexicon variant is not a word: " + std::to_string(v));
    }
  }
  if (total != header_.total_count || total == 0) {
    return Status::Corruption("lexicon total count does not match its entries");
  }
  return Status::OK();
}

uint32_t Lexicon::EntryOfVariant(uint32_t index) const {
  const auto it =
      std::upper_bound(entries_.begin(), entries_.end(), index,
                       [](uint32_t i, const lexicon::Entry& e) { return i < e.first_variant; });
  if (it == entries_.begin()) return lexicon::kNoEntry;
  const lexicon::Entry& e = *(it - 1);
  if (index - e.first_variant >= e.variant_count) return lexicon::kNoEntry;
  return static_cast<uint32_t>(it - 1 - entries_.begin());
}

std::string_view Lexicon::Key(uint32_t entry) const {
  const Entry& e = entries_[entry];
  return pool_.substr(e.key_offset, e.key_length);
}

std::span<const Variant> Lexicon::Variants(uint32_t entry) const {
  const Entry& e = entries_[entry];
  return variants_.subspan(e.first_variant, e.variant_count);
}

std::string_view Lexicon::VariantText(const Variant& v) const {
  return pool_.substr(v.offset, v.length);
}

std::string_view Lexicon::CommonSpelling(uint32_t entry) const {
  // The builder stores variants most frequent first.
  return VariantText(Variants(entry)[0]);
}

uint32_t Lexicon::Find(std::string_view key) const {
  uint32_t node = 0;
  for (char c : key) {
    const TrieNode& n = nodes_[node];
    uint32_t next = 0;
    for (uint32_t k = 0; k < n.child_count; ++k) {
      if (nodes_[n.first_child + k].label == static_cast<uint8_t>(c)) {
        next = n.first_child + k;
        break;
      }
    }
    if (next == 0) return lexicon::kNoEntry;
    node = next;
  }
  return nodes_[node].entry;
}

}  // namespace keydecide
