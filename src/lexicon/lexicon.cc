#include "lexicon/lexicon.h"

#include "base/mapped_file.h"

namespace keydecide {

using lexicon::Entry;
using lexicon::TrieNode;
using lexicon::Variant;

Lexicon::~Lexicon() = default;

Status Lexicon::Open(const std::string& path, std::unique_ptr<Lexicon>* out) {
  std::unique_ptr<Lexicon> lex(new Lexicon());
  KD_RETURN_IF_ERROR(MappedFile::Open(path, &lex->file_));
  Status s = Init(lex->file_->data(), lex.get());
  if (s.code() == Status::Code::kNotSupported) return Status::NotSupported(path + ": " + s.message());
  if (!s.ok()) return Status::Corruption(path + ": " + s.message());
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
  lex->entries_ = {reinterpret_cast<const Entry*>(data.data() + h.entries_offset()),
                   h.entry_count};
  lex->variants_ = {reinterpret_cast<const Variant*>(data.data() + h.variants_offset()),
                    h.variant_count};
  lex->pool_ = data.substr(h.pool_offset(), h.pool_size);
  return lex->Validate();
}

Status Lexicon::Validate() const {
  const uint64_t n = nodes_.size();
  for (uint64_t i = 0; i < n; ++i) {
    const TrieNode& node = nodes_[i];
    if (node.child_count > 0 &&
        (node.first_child <= i || uint64_t{node.first_child} + node.child_count > n)) {
      return Status::Corruption("trie node " + std::to_string(i) + " has bad children");
    }
    if (node.entry != lexicon::kNoEntry && node.entry >= entries_.size()) {
      return Status::Corruption("trie node " + std::to_string(i) + " has a bad entry");
    }
  }
  for (size_t e = 0; e < entries_.size(); ++e) {
    const Entry& entry = entries_[e];
    if (uint64_t{entry.key_offset} + entry.key_length > pool_.size() || entry.key_length == 0 ||
        entry.variant_count == 0 ||
        uint64_t{entry.first_variant} + entry.variant_count > variants_.size()) {
      return Status::Corruption("lexicon entry " + std::to_string(e) + " is out of range");
    }
  }
  for (size_t v = 0; v < variants_.size(); ++v) {
    if (uint64_t{variants_[v].offset} + variants_[v].length > pool_.size()) {
      return Status::Corruption("lexicon variant " + std::to_string(v) + " is out of range");
    }
  }
  return Status::OK();
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
