// Round trip of the lexicon file, and refusal of every kind of damaged file.

#include <gtest/gtest.h>

#include <cstring>

#include "lexicon/lexicon.h"
#include "lexicon/lexicon_builder.h"
#include "lexicon/lexicon_format.h"
#include "test_util.h"

namespace keydecide {
namespace {

using testing::FixtureLexiconBytes;

std::string SmallLexicon() {
  LexiconBuilder b;
  b.AddText("I think I can. The the THE the. London london London. well-known don't");
  std::string bytes;
  EXPECT_TRUE(b.Finish(LexiconBuilder::Options{.min_count = 1}, &bytes).ok());
  return bytes;
}

TEST(LexiconFormatTest, RoundTrip) {
  std::unique_ptr<Lexicon> lex;
  ASSERT_TRUE(Lexicon::FromBytes(SmallLexicon(), &lex).ok());
  EXPECT_EQ(lex->header().language, "en");
  const uint32_t the = lex->Find("the");
  ASSERT_NE(the, lexicon::kNoEntry);
  EXPECT_EQ(lex->Count(the), 4u);  // every case variant counts
  EXPECT_EQ(lex->CommonSpelling(the), "the");
  const uint32_t i = lex->Find("i");
  ASSERT_NE(i, lexicon::kNoEntry);
  EXPECT_EQ(lex->CommonSpelling(i), "I");
  EXPECT_EQ(lex->CommonSpelling(lex->Find("london")), "London");
  EXPECT_EQ(lex->Variants(lex->Find("london")).size(), 2u);
  EXPECT_NE(lex->Find("well"), lexicon::kNoEntry);  // hyphenated words are split
  EXPECT_NE(lex->Find("known"), lexicon::kNoEntry);
  EXPECT_NE(lex->Find("don't"), lexicon::kNoEntry);
  EXPECT_EQ(lex->Find("th"), lexicon::kNoEntry);
  EXPECT_EQ(lex->Find("thee"), lexicon::kNoEntry);
  EXPECT_EQ(lex->total_count(), 14u);
  // The most frequent entry is entry 0 and the root bounds everything.
  EXPECT_EQ(lex->Key(0), "the");
  EXPECT_EQ(lex->nodes()[0].max_count, 4u);
}

TEST(LexiconFormatTest, FiltersByCount) {
  LexiconBuilder b;
  b.AddText("a a a b b c");
  std::string bytes;
  ASSERT_TRUE(b.Finish(LexiconBuilder::Options{.min_count = 2}, &bytes).ok());
  std::unique_ptr<Lexicon> lex;
  ASSERT_TRUE(Lexicon::FromBytes(bytes, &lex).ok());
  EXPECT_EQ(lex->entry_count(), 2u);
  EXPECT_EQ(lex->Find("c"), lexicon::kNoEntry);
  EXPECT_FALSE(b.Finish(LexiconBuilder::Options{.min_count = 10}, &bytes).ok());
}

// A text weighted above 1 cannot admit a word it holds once (a reviewer's misspelling): the
// occurrences must reach min_count too. Below 1 the weighted count is the stricter bar.
TEST(LexiconFormatTest, AWeightAboveOneDoesNotAdmitAWordSeenOnce) {
  LexiconBuilder b;
  b.AddText("absolutly fine fine", 3.0);
  b.AddText("bible bible", 0.5);
  b.AddText("amen amen amen amen", 0.5);
  std::string bytes;
  ASSERT_TRUE(b.Finish(LexiconBuilder::Options{.min_count = 2}, &bytes).ok());
  std::unique_ptr<Lexicon> lex;
  ASSERT_TRUE(Lexicon::FromBytes(bytes, &lex).ok());
  EXPECT_EQ(lex->Find("absolutly"), lexicon::kNoEntry);  // count 3, seen once
  EXPECT_NE(lex->Find("fine"), lexicon::kNoEntry);       // count 6, seen twice
  EXPECT_EQ(lex->Find("bible"), lexicon::kNoEntry);      // seen twice, count 1
  EXPECT_NE(lex->Find("amen"), lexicon::kNoEntry);       // count 2
  EXPECT_EQ(lex->entry_count(), 2u);
}

// A capital that only begins a sentence or a line is the position's: it counts for the key
// but does not make "Moreover" the word's spelling. A word seen only there keeps it.
TEST(LexiconFormatTest, SentenceStartsDoNotDecideTheSpelling) {
  LexiconBuilder b;
  b.AddText("Moreover, it rained. Moreover it snowed.\nMoreover, and moreover.\n\"Zebra\" Zebra.");
  std::string bytes;
  ASSERT_TRUE(b.Finish(LexiconBuilder::Options{.min_count = 1}, &bytes).ok());
  std::unique_ptr<Lexicon> lex;
  ASSERT_TRUE(Lexicon::FromBytes(bytes, &lex).ok());
  const uint32_t moreover = lex->Find("moreover");
  ASSERT_NE(moreover, lexicon::kNoEntry);
  EXPECT_EQ(lex->Count(moreover), 4u);  // every occurrence counts
  EXPECT_EQ(lex->CommonSpelling(moreover), "moreover");
  EXPECT_EQ(lex->Variants(moreover).size(), 1u);
  EXPECT_EQ(lex->CommonSpelling(lex->Find("zebra")), "Zebra");  // only ever at a start
  EXPECT_EQ(lex->CommonSpelling(lex->Find("it")), "it");
}

// Each source votes on a key's spelling: one large source's capitals ("the Government") lose
// to several sources' lower case, though it holds most of the occurrences.
TEST(LexiconFormatTest, EachSourceVotesOnTheSpelling) {
  std::string formal;
  for (int i = 0; i < 300; ++i) formal += "the Government acts and the government waits ";
  for (int i = 0; i < 10; ++i) formal += "the Government rests ";  // 310 against 300
  const std::string others[] = {"our government is slow", "a government of the people",
                                "the government said no"};
  LexiconBuilder one_source;
  LexiconBuilder per_source;
  one_source.AddText(formal);
  per_source.AddText(formal);
  per_source.EndSource();
  for (const std::string& text : others) {
    one_source.AddText(text);
    per_source.AddText(text);
    per_source.EndSource();
  }
  std::string one_bytes;
  std::string per_bytes;
  ASSERT_TRUE(one_source.Finish(LexiconBuilder::Options{.min_count = 1}, &one_bytes).ok());
  ASSERT_TRUE(per_source.Finish(LexiconBuilder::Options{.min_count = 1}, &per_bytes).ok());
  std::unique_ptr<Lexicon> one;
  std::unique_ptr<Lexicon> per;
  ASSERT_TRUE(Lexicon::FromBytes(one_bytes, &one).ok());
  ASSERT_TRUE(Lexicon::FromBytes(per_bytes, &per).ok());
  EXPECT_EQ(one->CommonSpelling(one->Find("government")), "Government");
  const uint32_t government = per->Find("government");
  EXPECT_EQ(per->CommonSpelling(government), "government");
  EXPECT_EQ(per->Variants(government).size(), 2u);  // the capitalised spelling stays a variant
  // The counts, and so the keys and their order, do not depend on the sources.
  EXPECT_EQ(per->Count(government), one->Count(one->Find("government")));
  EXPECT_EQ(per->total_count(), one->total_count());
  ASSERT_EQ(per->entry_count(), one->entry_count());
  for (uint32_t e = 0; e < per->entry_count(); ++e) EXPECT_EQ(per->Key(e), one->Key(e));
}

TEST(LexiconFormatTest, TruncatedFilesAreRefused) {
  const std::string bytes = FixtureLexiconBytes();
  for (size_t cut = 0; cut < bytes.size(); cut += 1 + cut / 7) {
    std::unique_ptr<Lexicon> lex;
    const Status s = Lexicon::FromBytes(bytes.substr(0, cut), &lex);
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << "cut at " << cut << ": " << s.ToString();
  }
  std::unique_ptr<Lexicon> lex;
  EXPECT_FALSE(Lexicon::FromBytes(bytes + "x", &lex).ok());
}

TEST(LexiconFormatTest, FlippedBytesAreRefused) {
  const std::string bytes = FixtureLexiconBytes();
  for (size_t i = 0; i < bytes.size(); i += 1 + i / 13) {
    std::string bad = bytes;
    bad[i] = static_cast<char>(bad[i] ^ 0x5A);
    std::unique_ptr<Lexicon> lex;
    const Status s = Lexicon::FromBytes(bad, &lex);
    EXPECT_FALSE(s.ok()) << "flip at " << i;
  }
}

TEST(LexiconFormatTest, NewerVersionIsNotSupported) {
  std::string bytes = FixtureLexiconBytes();
  const uint32_t v = lexicon::kFormatVersion + 1;
  std::memcpy(bytes.data() + 8, &v, sizeof(v));
  std::unique_ptr<Lexicon> lex;
  EXPECT_EQ(Lexicon::FromBytes(bytes, &lex).code(), Status::Code::kNotSupported);
}

// A file whose checksum is right but whose structure is not (as a buggy or hostile writer
// would make) must still be refused: the checksum is not the only guard.
TEST(LexiconFormatTest, BadStructureWithValidChecksumIsRefused) {
  const std::string good = FixtureLexiconBytes();
  lexicon::Header h;
  ASSERT_TRUE(h.DecodeFrom(good).ok());
  ASSERT_GT(h.node_count, 2u);
  struct Damage {
    const char* what;
    uint64_t offset;
    uint32_t value;
  };
  const Damage damages[] = {
      {"root child out of range", h.nodes_offset() + 0, h.node_count + 5},
      {"root child pointing at itself", h.nodes_offset() + 0, 0},
      {"node entry out of range", h.nodes_offset() + 16 + 4, h.entry_count + 1},
      {"entry key outside the pool", h.entries_offset() + 0, h.pool_size},
      {"entry variants out of range", h.entries_offset() + 12, h.variant_count},
      {"variant outside the pool", h.variants_offset() + 4, h.pool_size + 1},
  };
  for (const Damage& d : damages) {
    std::string bad = good;
    std::memcpy(bad.data() + d.offset, &d.value, sizeof(d.value));
    lexicon::SealFile(&bad);
    std::unique_ptr<Lexicon> lex;
    const Status s = Lexicon::FromBytes(bad, &lex);
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << d.what << ": " << s.ToString();
  }
}

// Hand-made structures a buggy or hostile writer could produce, each sealed with a valid
// checksum: a shared graph (children blocks overlapping) would make the search walk an
// exponential number of paths; bad strings would reach hosts as invalid UTF-8.
TEST(LexiconFormatTest, HostileStructuresAreRefused) {
  const std::string good = FixtureLexiconBytes();
  lexicon::Header h;
  ASSERT_TRUE(h.DecodeFrom(good).ok());
  auto node_at = [&](std::string* bytes, uint32_t i) {
    return reinterpret_cast<lexicon::TrieNode*>(bytes->data() + h.nodes_offset() + 16 * i);
  };
  auto refused = [](std::string bytes, const char* what) {
    lexicon::SealFile(&bytes);
    std::unique_ptr<Lexicon> lex;
    const Status s = Lexicon::FromBytes(bytes, &lex);
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << what << ": " << s.ToString();
  };
  {  // the root's second child shares the root's children block
    std::string bad = good;
    const lexicon::TrieNode* root = node_at(&bad, 0);
    lexicon::TrieNode* second = node_at(&bad, root->first_child + 1);
    second->first_child = root->first_child;
    second->child_count = root->child_count;
    refused(bad, "shared children");
  }
  {  // two siblings with the same label
    std::string bad = good;
    const lexicon::TrieNode* root = node_at(&bad, 0);
    node_at(&bad, root->first_child + 1)->label = node_at(&bad, root->first_child)->label;
    refused(bad, "repeated label");
  }
  {  // a child bounded above its parent
    std::string bad = good;
    node_at(&bad, node_at(&bad, 0)->first_child)->max_count = 0xFFFFFFFF;
    refused(bad, "max_count order");
  }
  {  // invalid UTF-8 in the pool (every key and variant lives there)
    std::string bad = good;
    bad[h.pool_offset()] = '\xFF';
    refused(bad, "invalid UTF-8");
  }
  {  // total count that does not add up
    std::string bad = good;
    const uint64_t total = h.total_count + 1;
    std::memcpy(bad.data() + 40, &total, sizeof(total));
    refused(bad, "total count");
  }
  // Found by fuzz/lexicon_fuzzer.cc: structures that passed and broke Find(Key(e)) == e.
  {  // an entry whose key is not the path of its node (Find would never reach it)
    std::string bad = good;
    const auto* entry = reinterpret_cast<const lexicon::Entry*>(bad.data() + h.entries_offset());
    char& first = bad[h.pool_offset() + entry->key_offset];
    ASSERT_TRUE(first >= 'a' && first <= 'z');
    first = first == 'z' ? 'y' : static_cast<char>(first + 1);
    refused(bad, "key not its path");
  }
  {  // the last node made its own child: unreachable from the root, a loop for a walker
    std::string bad = good;
    const uint32_t last = h.node_count - 1;
    ASSERT_EQ(node_at(&bad, last)->child_count, 0);
    for (uint32_t i = 0; i < last; ++i) {
      lexicon::TrieNode* n = node_at(&bad, i);
      if (n->child_count > 0 && n->first_child + n->child_count == h.node_count) --n->child_count;
    }
    node_at(&bad, last)->first_child = last;
    node_at(&bad, last)->child_count = 1;
    refused(bad, "own child");
  }
}

TEST(LexiconFormatTest, FilesOnDisk) {
  std::unique_ptr<Lexicon> lex;
  EXPECT_EQ(Lexicon::Open("/nonexistent/lexicon.kdlex", &lex).code(), Status::Code::kNotFound);
  const std::string empty = testing::TempPath("empty.kdlex");
  testing::WriteFile(empty, "");
  const Status s = Lexicon::Open(empty, &lex);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find(empty), std::string::npos);  // names the file
  std::remove(empty.c_str());
  EXPECT_FALSE(Lexicon::Open("/tmp", &lex).ok());  // a folder
  const std::string good = testing::TempPath("good.kdlex");
  testing::WriteFile(good, FixtureLexiconBytes());
  EXPECT_TRUE(Lexicon::Open(good, &lex).ok());
  std::remove(good.c_str());
}

}  // namespace
}  // namespace keydecide
