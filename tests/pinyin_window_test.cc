// PinyinWindow: compositions longer than the sentence search reads (256 and 600 letters, up to
// the 1024 cap) convert whole on a small fixture lexicon; the fixed part is the same typed one
// letter at a time, all at once, or after deletions; the live part stays within the window;
// syllable breaks cover every letter; refused input; no allocation once warm; and a long
// composition on models/zh/lexicon.kdlex.

#include "lexicon/pinyin/pinyin_window.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "allocation_hook.h"
#include "lexicon/lexicon.h"
#include "lexicon/pinyin/pinyin_sentence.h"
#include "test_util.h"

namespace keydecide {
namespace {

std::unique_ptr<Lexicon> FixtureLexicon() {
  std::unique_ptr<Lexicon> lex;
  const Status opened = Lexicon::FromBytes(testing::PinyinLexiconBytes({{"women", "我们", 6000},
                                                                        {"wo", "我", 9000},
                                                                        {"men", "们", 500},
                                                                        {"men", "门", 700},
                                                                        {"de", "的", 20000},
                                                                        {"zhongguo", "中国", 5000},
                                                                        {"zhong", "中", 8000},
                                                                        {"guo", "过", 6000},
                                                                        {"guo", "国", 3000},
                                                                        {"xian", "先", 4000},
                                                                        {"xi", "西", 2000},
                                                                        {"an", "安", 1500}}),
                                           &lex);
  EXPECT_TRUE(opened.ok()) << opened.ToString();
  return lex;
}

std::string Repeat(std::string_view s, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

std::string WithoutApostrophes(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (c != '\'') out.push_back(c);
  }
  return out;
}

class PinyinWindowTest : public ::testing::Test {
 protected:
  PinyinWindowTest()
      : lex_(FixtureLexicon()), search_(lex_.get(), nullptr, {}), window_(&search_) {}

  // The fixed part and the live part's best sentence, as a session offers it.
  std::string Convert(std::string_view typed) {
    const Status s = window_.Update(typed, 0);
    EXPECT_TRUE(s.ok()) << s.ToString();
    const Status live = search_.Search(typed.substr(window_.live_begin()), window_.live_context());
    EXPECT_TRUE(live.ok()) << live.ToString();
    if (search_.sentences().empty()) return "";
    return std::string(window_.fixed_text()) + std::string(search_.sentences()[0].text);
  }

  std::unique_ptr<Lexicon> lex_;
  PinyinSentenceSearch search_;
  PinyinWindow window_;
};

TEST_F(PinyinWindowTest, ShortCompositionFixesNothing) {
  const std::string typed = Repeat("womendezhongguo", 4);  // 60 letters
  EXPECT_EQ(Convert(typed), Repeat("我们的中国", 4));
  EXPECT_EQ(window_.live_begin(), 0u);
  EXPECT_TRUE(window_.fixed_text().empty());
  EXPECT_TRUE(window_.pieces().empty());
}

TEST_F(PinyinWindowTest, LongCompositionsConvertWhole) {
  for (const size_t repeats : {18, 40, 68}) {  // 270, 600 and 1020 letters
    const std::string typed = Repeat("womendezhongguo", repeats);
    ASSERT_GE(typed.size(), repeats == 18 ? 256u : 600u);
    EXPECT_EQ(Convert(typed), Repeat("我们的中国", repeats)) << typed.size() << " letters";
    // The search read at most a window; every fixed word had half a window read after it.
    EXPECT_GT(window_.live_begin(), 0u);
    EXPECT_LE(typed.size() - window_.live_begin(), PinyinWindow::kWindow);
    EXPECT_GE(typed.size() - window_.live_begin(), PinyinWindow::kWindow - PinyinWindow::kFixSpan);
    // The pieces cover the fixed letters in order.
    size_t at = 0;
    for (const PinyinWindow::Piece& piece : window_.pieces()) {
      EXPECT_EQ(piece.begin, at);
      EXPECT_GT(piece.end, piece.begin);
      at = piece.end;
    }
    EXPECT_EQ(at, window_.live_begin());
    // The fixed words spell the fixed text, each its lexicon entry's word.
    std::string words;
    for (const PinyinWindow::FixedWord& w : window_.fixed_words()) {
      EXPECT_EQ(w.text_begin, words.size());
      const std::string_view text =
          window_.fixed_text().substr(w.text_begin, w.text_end - w.text_begin);
      ASSERT_NE(w.entry, lexicon::kNoEntry);
      EXPECT_EQ(lex_->VariantText(lex_->Variants(w.entry)[w.variant]), text);
      words += text;
    }
    EXPECT_EQ(words, window_.fixed_text());
    EXPECT_EQ(window_.pieces().back().words_end, window_.fixed_words().size());
  }
}

TEST_F(PinyinWindowTest, OneLetterAtATimeFixesTheSameAsAllAtOnce) {
  const std::string typed = Repeat("womendezhongguoxian", 16) + "wo'men";  // 310 bytes
  PinyinSentenceSearch other_search(lex_.get(), nullptr, {});
  PinyinWindow at_once(&other_search);
  for (size_t n = 1; n <= typed.size(); ++n) {
    const std::string_view prefix = std::string_view(typed).substr(0, n);
    ASSERT_TRUE(window_.Update(prefix, 0).ok());
    ASSERT_TRUE(at_once.Update(prefix, 0).ok());
    ASSERT_EQ(window_.fixed_text(), at_once.fixed_text()) << n;
    ASSERT_EQ(window_.live_begin(), at_once.live_begin()) << n;
  }
  const std::string full(window_.fixed_text());
  EXPECT_FALSE(full.empty());
  // Deleting back: what stays fixed is what those letters alone fix.
  for (size_t n = typed.size(); n-- > 0;) {
    const std::string_view prefix = std::string_view(typed).substr(0, n);
    ASSERT_TRUE(window_.Update(prefix, 0).ok());
    PinyinWindow fresh(&other_search);
    ASSERT_TRUE(fresh.Update(prefix, 0).ok());
    ASSERT_EQ(window_.fixed_text(), fresh.fixed_text()) << n;
    ASSERT_EQ(window_.live_begin(), fresh.live_begin()) << n;
    ASSERT_EQ(window_.fixed_words().size(), fresh.fixed_words().size()) << n;
  }
  EXPECT_TRUE(window_.fixed_text().empty());
  // A changed letter early on, or another context word, fixes again from there.
  ASSERT_TRUE(window_.Update(typed, 0).ok());
  std::string changed = typed;
  changed[3] = 'g';  // "wom" → "wog"
  ASSERT_TRUE(window_.Update(changed, 0).ok());
  ASSERT_TRUE(at_once.Update(changed, 0).ok());
  EXPECT_EQ(window_.fixed_text(), at_once.fixed_text());
  EXPECT_NE(window_.fixed_text(), full);
}

TEST_F(PinyinWindowTest, SyllableBreaksCoverEveryLetter) {
  const std::string typed = Repeat("womendezhongguo", 20);
  ASSERT_EQ(Convert(typed), Repeat("我们的中国", 20));
  std::string preedit;
  window_.WriteSyllableBreaks(typed, search_.sentences()[0].breaks, &preedit);
  EXPECT_EQ(WithoutApostrophes(preedit), typed);
  EXPECT_EQ(preedit, Repeat("wo'men'de'zhong'guo'", 20).substr(0, preedit.size()));
  EXPECT_EQ(preedit.size(), Repeat("wo'men'de'zhong'guo'", 20).size() - 1);
}

TEST_F(PinyinWindowTest, LettersWithNoReadingStayAsTyped) {
  // 'v' starts no syllable: a window of it has no sentence, its first half is fixed as typed.
  const std::string typed = std::string(100, 'v');
  ASSERT_TRUE(window_.Update(typed, 0).ok());
  EXPECT_EQ(window_.fixed_text(), std::string(window_.live_begin(), 'v'));
  EXPECT_LE(typed.size() - window_.live_begin(), PinyinWindow::kWindow);
}

TEST_F(PinyinWindowTest, RefusesWhatItCannotConvert) {
  const std::string longest = Repeat("women", PinyinWindow::kMaxComposition / 5) + "zhon";
  ASSERT_EQ(longest.size(), PinyinWindow::kMaxComposition);
  EXPECT_TRUE(window_.Update(longest, 0).ok());
  const Status too_long = window_.Update(longest + "a", 0);
  EXPECT_EQ(too_long.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(too_long.message().find("1024"), std::string::npos) << too_long.message();
  EXPECT_TRUE(window_.fixed_text().empty());
  EXPECT_EQ(window_.live_begin(), 0u);
  EXPECT_EQ(window_.Update(Repeat("women", 20) + "X", 0).code(), Status::Code::kInvalidArgument);
  EXPECT_TRUE(window_.fixed_text().empty());
}

TEST_F(PinyinWindowTest, NoAllocationOnceWarm) {
  const std::string typed = Repeat("womendezhongguo", 68);  // 1020 letters, every window fixed
  ASSERT_TRUE(window_.Update(typed, 0).ok());
  ASSERT_TRUE(window_.Update(std::string(1000, 'v'), 0).ok());
  ASSERT_TRUE(window_.Update("", 0).ok());
  const long before = testing::Allocations();
  for (size_t n = 0; n <= typed.size(); n += 7) {
    ASSERT_TRUE(window_.Update(std::string_view(typed).substr(0, n), 0).ok());
  }
  EXPECT_EQ(testing::Allocations(), before);
}

TEST(PinyinWindowRealLexiconTest, LongSentenceConverts) {
  const std::string path = std::string(KD_MODELS_DIR) + "/zh/lexicon.kdlex";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not built";
  std::unique_ptr<Lexicon> lex;
  ASSERT_TRUE(Lexicon::Open(path, &lex).ok());
  PinyinSentenceSearch search(lex.get(), nullptr, {});
  PinyinWindow window(&search);
  // 342 letters typed without a pause; each clause alone converts as written.
  const std::string clauses =
      "womenzaizhongguoxuexizhongwen"
      "jintiantianqihenhao"
      "womenyiqiquchifan"
      "zhegewentihenzhongyao"
      "qingdakaiwenjianjiaruwenjian";
  const std::string typed = clauses + clauses + clauses;
  const std::string expected_clauses =
      "我们在中国学习中文今天天气很好我们一起去吃饭这个问题很重要请打开文件加入文件";
  const std::string expected = expected_clauses + expected_clauses + expected_clauses;
  ASSERT_GT(typed.size(), 256u);
  ASSERT_TRUE(window.Update(typed, 0).ok());
  ASSERT_TRUE(search.Search(std::string_view(typed).substr(window.live_begin()), 0).ok());
  ASSERT_FALSE(search.sentences().empty());
  const std::string converted =
      std::string(window.fixed_text()) + std::string(search.sentences()[0].text);
  EXPECT_EQ(converted, expected);
}

}  // namespace
}  // namespace keydecide
