// Documents (document.h) and the store (document_store.h): incremental edits in UTF-16 and
// UTF-8 positions, line ends, clamping, the caps.

#include "document.h"

#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "document_store.h"

namespace keydecide::ls {
namespace {

constexpr auto kUtf16 = PositionEncoding::kUtf16;
constexpr auto kUtf8 = PositionEncoding::kUtf8;

TEST(DocumentTest, Utf16ColumnsCountSurrogatePairsAsTwo) {
  // "a😀é字b": a (1 unit, 1 byte), 😀 (2 units, 4 bytes), é (1, 2), 字 (1, 3), b.
  Document doc("x\na😀é字b");
  EXPECT_EQ(doc.OffsetOf({1, 0}, kUtf16), 2u);
  EXPECT_EQ(doc.OffsetOf({1, 1}, kUtf16), 3u);
  EXPECT_EQ(doc.OffsetOf({1, 2}, kUtf16), 3u);  // inside the pair: the character's start
  EXPECT_EQ(doc.OffsetOf({1, 3}, kUtf16), 7u);
  EXPECT_EQ(doc.OffsetOf({1, 4}, kUtf16), 9u);
  EXPECT_EQ(doc.OffsetOf({1, 5}, kUtf16), 12u);
  EXPECT_EQ(doc.OffsetOf({1, 99}, kUtf16), 13u);  // past the line: its end
  EXPECT_EQ(doc.OffsetOf({7, 0}, kUtf16), 13u);   // past the text: its end
  EXPECT_EQ(doc.OffsetOf({1, 7}, kUtf8), 9u);
  for (const size_t offset : {0u, 2u, 3u, 7u, 9u, 12u, 13u}) {
    EXPECT_EQ(doc.OffsetOf(doc.PositionOf(offset, kUtf16), kUtf16), offset);
    EXPECT_EQ(doc.OffsetOf(doc.PositionOf(offset, kUtf8), kUtf8), offset);
  }
  EXPECT_EQ(doc.PositionOf(12, kUtf16).character, 5u);
  EXPECT_EQ(doc.PositionOf(12, kUtf8).character, 10u);
}

TEST(DocumentTest, EveryLineEndCounts) {
  Document doc("a\r\nb\rc\nd");
  EXPECT_EQ(doc.OffsetOf({1, 0}, kUtf16), 3u);
  EXPECT_EQ(doc.OffsetOf({2, 0}, kUtf16), 5u);
  EXPECT_EQ(doc.OffsetOf({3, 0}, kUtf16), 7u);
  EXPECT_EQ(doc.OffsetOf({0, 5}, kUtf16), 1u);  // before "\r\n", not inside it
  EXPECT_EQ(doc.PositionOf(7, kUtf16).line, 3u);
}

TEST(DocumentTest, IncrementalEditsAsAnEditorSendsThem) {
  Document doc("see you\n");
  doc.Replace({0, 7}, {0, 7}, " tomo", kUtf16);
  EXPECT_EQ(doc.text(), "see you tomo\n");
  doc.Replace({0, 8}, {0, 12}, "tomorrow 😀", kUtf16);  // a completion replaces the word
  EXPECT_EQ(doc.text(), "see you tomorrow 😀\n");
  // Deleting the emoji: two UTF-16 units, four bytes.
  const AppliedEdit e = doc.Replace({0, 17}, {0, 19}, "", kUtf16);
  EXPECT_EQ(doc.text(), "see you tomorrow \n");
  EXPECT_EQ(e.end - e.begin, 4u);
  doc.Replace({1, 0}, {1, 0}, "line two\r\nthree", kUtf16);  // a new line at the end
  doc.Replace({2, 0}, {2, 5}, "3", kUtf16);
  EXPECT_EQ(doc.text(), "see you tomorrow \nline two\r\n3");
  doc.Replace({0, 3}, {2, 0}, "", kUtf16);  // across lines
  EXPECT_EQ(doc.text(), "see3");
  doc.Replace({0, 3}, {0, 1}, "!", kUtf16);  // a reversed range inserts at its start
  EXPECT_EQ(doc.text(), "see!3");
}

// Random edits, with and without line ends, near "\r\n" too: positions after each edit are
// those of the same text indexed afresh (the line index is updated in place when it can be).
TEST(DocumentTest, LineIndexAfterEditsMatchesAFreshOne) {
  std::minstd_rand rng(7);  // 32-bit results: no narrowing below
  const std::vector<std::string> pieces = {"a", "é", "😀", " ", "\n", "\r", "\r\n", "xy", ""};
  Document doc("first\r\nsecond\nthird\rfourth");
  for (int step = 0; step < 2000; ++step) {
    const uint32_t line = static_cast<uint32_t>(rng() % 6), ch = static_cast<uint32_t>(rng() % 9);
    const uint32_t down = rng() % 4 == 0 ? 1 : 0, more = static_cast<uint32_t>(rng() % 3);
    const Position from{line, ch}, to{line + down, ch + more};
    doc.Replace(from, to, pieces[rng() % pieces.size()], kUtf16);
    const Document fresh(doc.text());
    for (uint32_t l = 0; l < 8; ++l) {
      for (uint32_t c = 0; c < 10; c += 3) {
        ASSERT_EQ(doc.OffsetOf({l, c}, kUtf16), fresh.OffsetOf({l, c}, kUtf16))
            << "step " << step << " at " << l << ":" << c;
      }
    }
    if (doc.text().size() > 200) doc.Assign("first\r\nsecond\nthird\rfourth");
  }
}

TEST(DocumentStoreTest, CapsTextPerDocument) {
  DocumentStore store(/*max_document_bytes=*/10);
  OpenDocument* d = store.Open("file:///a", "markdown", 1, "0123456789");
  EXPECT_FALSE(d->too_large);
  store.Change(d, {0, 10}, {0, 10}, "x", kUtf16);
  EXPECT_TRUE(d->too_large);
  EXPECT_TRUE(d->doc.text().empty());
  store.Change(d, {0, 0}, {0, 0}, "y", kUtf16);  // incremental changes cannot apply now
  EXPECT_TRUE(d->too_large);
  store.Replace(d, "short");  // a full change brings it back
  EXPECT_FALSE(d->too_large);
  EXPECT_EQ(d->doc.text(), "short");
  EXPECT_TRUE(store.Open("file:///b", "markdown", 1, std::string(11, 'x'))->too_large);
}

TEST(DocumentStoreTest, ForgetsTheLeastRecentlyUsedBeyondTheCap) {
  DocumentStore store;
  for (size_t i = 0; i < DocumentStore::kMaxDocuments + 5; ++i) {
    store.Open("file:///" + std::to_string(i), "markdown", 1, "text");
    if (i >= 2) {
      ASSERT_NE(store.Find("file:///0"), nullptr) << i;  // kept by its use
    }
  }
  EXPECT_EQ(store.size(), DocumentStore::kMaxDocuments);
  EXPECT_NE(store.Find("file:///0"), nullptr);
  EXPECT_EQ(store.Find("file:///1"), nullptr);
  EXPECT_NE(store.Find("file:///68"), nullptr);
  store.Close("file:///68");
  EXPECT_EQ(store.Find("file:///68"), nullptr);
}

}  // namespace
}  // namespace keydecide::ls
