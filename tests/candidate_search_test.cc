// CandidateSearch against a brute-force reference: every lexicon word, the weighted
// optimal-string-alignment distance of each of its prefixes, the best one within budget.

#include "lexicon/candidate_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "lexicon/lexicon.h"
#include "lexicon/lexicon_builder.h"
#include "lexicon/typing_costs.h"
#include "test_util.h"
#include "text/keyboard_layout.h"

namespace keydecide {
namespace {

// Plain full-matrix version of the distance the search computes row by row.
int BestPrefixCost(const TypingCosts& costs, std::string_view typed, std::string_view word) {
  const size_t m = typed.size(), n = word.size();
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
  for (size_t i = 1; i <= m; ++i) d[0][i] = d[0][i - 1] + costs.Insertion(typed, i - 1);
  int best = d[0][m];
  for (size_t j = 1; j <= n; ++j) {
    d[j][0] = d[j - 1][0] + costs.Omission(j - 1);
    const auto w = static_cast<uint8_t>(word[j - 1]);
    for (size_t i = 1; i <= m; ++i) {
      const auto t = static_cast<uint8_t>(typed[i - 1]);
      int v = d[j - 1][i - 1] + costs.Substitution(t, w, i - 1);
      v = std::min(v, d[j][i - 1] + costs.Insertion(typed, i - 1));
      v = std::min(v, d[j - 1][i] + costs.Omission(j - 1));
      if (i >= 2 && j >= 2 && t == static_cast<uint8_t>(word[j - 2]) &&
          static_cast<uint8_t>(typed[i - 2]) == w && t != w) {
        v = std::min(v, d[j - 2][i - 2] + costs.Transposition());
      }
      d[j][i] = v;
    }
    best = std::min(best, d[j][m]);
  }
  return best;
}

std::vector<SearchHit> BruteForce(const Lexicon& lex, const TypingCosts& costs,
                                  const CandidateSearch& search, std::string_view typed) {
  std::vector<SearchHit> all;
  const uint16_t budget = search.Budget(typed.size());
  for (uint32_t e = 0; e < lex.entry_count(); ++e) {
    const int cost = BestPrefixCost(costs, typed, lex.Key(e));
    if (cost > budget) continue;
    const auto c = static_cast<uint16_t>(cost);
    all.push_back(
        {e, c, CandidateSearch::SearchScore(lex.Count(e), c, search.options().nats_per_point)});
  }
  std::sort(all.begin(), all.end(), [](const SearchHit& a, const SearchHit& b) {
    return a.score != b.score ? a.score > b.score : a.entry < b.entry;
  });
  if (all.size() > search.options().max_candidates) all.resize(search.options().max_candidates);
  return all;
}

void ExpectSameHits(const std::vector<SearchHit>& got, const std::vector<SearchHit>& want,
                    std::string_view typed, std::string_view what) {
  ASSERT_EQ(got.size(), want.size()) << what << " typed '" << typed << "'";
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got[i].entry, want[i].entry) << what << " typed '" << typed << "' rank " << i;
    ASSERT_EQ(got[i].cost, want[i].cost) << what << " typed '" << typed << "' rank " << i;
    ASSERT_EQ(got[i].score, want[i].score) << what << " typed '" << typed << "' rank " << i;
  }
}

// The next text of a random typing session: mostly a key more, sometimes backspaces, a changed
// last key, a paste, a jump to another word or an empty field.
void RandomEdit(std::mt19937* rng, std::string_view alphabet, size_t max_size, std::string* text) {
  std::uniform_int_distribution<int> op(0, 99), letter(0, static_cast<int>(alphabet.size()) - 1);
  std::uniform_int_distribution<size_t> count(1, 4);
  auto random_letters = [&](size_t n) {
    std::string s;
    for (size_t k = 0; k < n; ++k) s += alphabet[letter(*rng)];
    return s;
  };
  const int o = op(*rng);
  if (o < 60) {
    *text += alphabet[letter(*rng)];
  } else if (o < 75) {
    text->resize(text->size() - std::min(text->size(), count(*rng)));
  } else if (o < 83) {
    if (!text->empty()) text->back() = alphabet[letter(*rng)];
  } else if (o < 88) {
    *text += random_letters(count(*rng));
  } else if (o < 96) {
    *text = random_letters(count(*rng));
  } else if (o < 98) {
    text->clear();
  }  // else: the same text again
  if (text->size() > max_size) text->resize(max_size);
}

class CandidateSearchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(
        KeyboardLayout::Load(std::string(KD_MODELS_DIR) + "/layouts/qwerty.txt", &layout_).ok());
    costs_ = std::make_unique<TypingCosts>(&layout_);
  }

  std::unique_ptr<Lexicon> RandomLexicon(std::mt19937* rng, size_t words) {
    // Words share prefixes (drawn from a small alphabet, Zipf-like counts) so the trie has
    // real branching and many near-misses.
    std::uniform_int_distribution<int> len(1, 9), letter(0, 7), count(1, 5000);
    const std::string alphabet = "etaoinsh";
    LexiconBuilder b;
    for (size_t i = 0; i < words; ++i) {
      std::string w;
      for (int k = len(*rng); k > 0; --k) w += alphabet[letter(*rng)];
      b.AddWord(w, count(*rng) / static_cast<double>(1 + i % 50));
    }
    std::string bytes;
    EXPECT_TRUE(b.Finish(LexiconBuilder::Options{.min_count = 1}, &bytes).ok());
    std::unique_ptr<Lexicon> lex;
    EXPECT_TRUE(Lexicon::FromBytes(bytes, &lex).ok());
    return lex;
  }

  KeyboardLayout layout_;
  std::unique_ptr<TypingCosts> costs_;
};

TEST_F(CandidateSearchTest, MatchesBruteForceOnRandomWords) {
  std::mt19937 rng(1234);
  for (size_t max_candidates : {size_t{200}, size_t{5}}) {
    auto lex = RandomLexicon(&rng, 3000);
    CandidateSearch::Options options;
    options.max_candidates = max_candidates;
    CandidateSearch search(lex.get(), costs_.get(), options);
    std::uniform_int_distribution<int> len(0, 8), letter(0, 11);
    const std::string alphabet = "etaoinshrdwq";  // includes letters the lexicon lacks
    std::vector<SearchHit> got;
    for (int trial = 0; trial < 300; ++trial) {
      std::string typed;
      for (int k = len(rng); k > 0; --k) typed += alphabet[letter(rng)];
      search.Search(typed, &got);
      const auto want = BruteForce(*lex, *costs_, search, typed);
      ASSERT_EQ(got.size(), want.size()) << "typed '" << typed << "'";
      for (size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(got[i].entry, want[i].entry) << "typed '" << typed << "' rank " << i;
        ASSERT_EQ(got[i].cost, want[i].cost) << "typed '" << typed << "' rank " << i;
      }
    }
  }
}

// Key by key, a search that carries its rows over finds what a search afresh (no rows carried,
// today's walk) and the brute force find, for every text of random typing sessions: growing
// across long_from, backspaces, changed keys, jumps to other words, texts up to kMaxTyped (and
// one byte over), caches small enough to run out of rows.
TEST_F(CandidateSearchTest, CarriedSearchMatchesFreshSearchKeyByKey) {
  std::mt19937 rng(4321);
  auto lex = RandomLexicon(&rng, 3000);
  struct Variant {
    size_t max_candidates, long_from, carried_rows, max_size;
  };
  const Variant variants[] = {{200, 6, 12288, 12},
                              {5, 6, 12288, 12},
                              {200, 3, 12288, 9},
                              {20, 6, 300, 12},  // runs out of rows now and then
                              {20, 6, 1, 12},    // only the root's row: always afresh
                              {20, 6, 12288, CandidateSearch::kMaxTyped + 1}};
  const std::string alphabet = "etaoinshrdwq";  // includes letters the lexicon lacks
  std::vector<SearchHit> got, want;
  for (const Variant& v : variants) {
    SCOPED_TRACE(::testing::Message() << "max_candidates " << v.max_candidates << " long_from "
                                      << v.long_from << " carried_rows " << v.carried_rows);
    CandidateSearch::Options options;
    options.max_candidates = v.max_candidates;
    options.long_from = v.long_from;
    options.carried_rows = v.carried_rows;
    CandidateSearch carried(lex.get(), costs_.get(), options);
    options.carried_rows = 0;
    CandidateSearch afresh(lex.get(), costs_.get(), options);
    std::string typed;
    for (int key = 0; key < 1500; ++key) {
      RandomEdit(&rng, alphabet, v.max_size, &typed);
      carried.Search(typed, &got);
      afresh.Search(typed, &want);
      ExpectSameHits(got, want, typed, "afresh");
      if (key % 10 == 0 && typed.size() <= 12) {
        ExpectSameHits(got, BruteForce(*lex, *costs_, carried, typed), typed, "brute force");
      }
      if (HasFatalFailure()) return;
    }
  }
}

// Up to kMaxTyped and one byte over, back to the empty text, and again with a different byte
// deep inside: every length on the way, against a search afresh.
TEST_F(CandidateSearchTest, CarriedSearchMatchesFreshSearchUpToMaxTyped) {
  std::mt19937 rng(7);
  auto lex = RandomLexicon(&rng, 3000);
  CandidateSearch::Options options;
  options.max_candidates = 20;
  CandidateSearch carried(lex.get(), costs_.get(), options);
  options.carried_rows = 0;
  CandidateSearch afresh(lex.get(), costs_.get(), options);
  std::string text;
  for (size_t i = 0; i <= CandidateSearch::kMaxTyped; ++i) text += "etaoinsh"[(i * 5 + i / 3) % 8];
  std::string changed = text;
  changed[20] = 'q';
  std::vector<SearchHit> got, want;
  auto check = [&](std::string_view typed) {
    carried.Search(typed, &got);
    afresh.Search(typed, &want);
    ExpectSameHits(got, want, typed, "afresh");
  };
  for (size_t n = 0; n <= text.size() && !HasFatalFailure(); ++n) check(text.substr(0, n));
  EXPECT_TRUE(got.empty());  // kMaxTyped + 1 bytes find nothing
  for (size_t n = text.size(); n-- > 0 && !HasFatalFailure();) check(text.substr(0, n));
  for (size_t n = 0; n <= 30 && !HasFatalFailure(); ++n) check(text.substr(0, n));
  for (size_t n = 21; n <= changed.size() && !HasFatalFailure(); ++n) {
    check(changed.substr(0, n));
  }
}

// Real words typed key by key with slips, backspaces and corrections, against a search afresh.
TEST_F(CandidateSearchTest, CarriedSearchMatchesFreshSearchOnRealWords) {
  std::unique_ptr<Lexicon> lex;
  ASSERT_TRUE(Lexicon::FromBytes(testing::FixtureLexiconBytes(), &lex).ok());
  CandidateSearch carried(lex.get(), costs_.get(), CandidateSearch::Options());
  CandidateSearch::Options options;
  options.carried_rows = 0;
  CandidateSearch afresh(lex.get(), costs_.get(), options);
  std::mt19937 rng(99);
  std::uniform_int_distribution<uint32_t> entry(0, lex->entry_count() - 1);
  std::uniform_int_distribution<int> op(0, 9);
  std::vector<SearchHit> got, want;
  auto check = [&](std::string_view typed) {
    carried.Search(typed, &got);
    afresh.Search(typed, &want);
    ExpectSameHits(got, want, typed, "afresh");
  };
  for (int word = 0; word < 300 && !HasFatalFailure(); ++word) {
    const std::string target(lex->Key(entry(rng)));
    std::string typed;
    for (size_t i = 0; i < target.size() && !HasFatalFailure(); ++i) {
      const int o = op(rng);
      if (o == 0 && !typed.empty()) {  // a slip, seen and taken back
        typed += "qzx"[i % 3];
        check(typed);
        typed.pop_back();
      } else if (o == 1 && i + 1 < target.size()) {  // a transposition, left in
        typed += target[i + 1];
        check(typed);
        typed += target[i];
        ++i;
      } else {
        typed += target[i];
      }
      check(typed);
    }
    while (!typed.empty() && op(rng) < 3 && !HasFatalFailure()) {
      typed.pop_back();
      check(typed);
    }
  }
}

TEST_F(CandidateSearchTest, FindsTyposOfRealWords) {
  std::unique_ptr<Lexicon> lex;
  ASSERT_TRUE(Lexicon::FromBytes(testing::FixtureLexiconBytes(), &lex).ok());
  CandidateSearch search(lex.get(), costs_.get(), CandidateSearch::Options());
  std::vector<SearchHit> hits;
  auto contains = [&](std::string_view word, int max_rank) {
    for (int i = 0; i < static_cast<int>(hits.size()) && i < max_rank; ++i) {
      if (lex->Key(hits[i].entry) == word) return true;
    }
    return false;
  };
  search.Search("teh", &hits);  // transposition
  EXPECT_TRUE(contains("the", 3));
  search.Search("meetimg", &hits);  // neighbour substitution n -> m
  EXPECT_TRUE(contains("meeting", 1));
  search.Search("tomorow", &hits);  // omission
  EXPECT_TRUE(contains("tomorrow", 1));
  search.Search("weatther", &hits);  // insertion (a double tap)
  EXPECT_TRUE(contains("weather", 1));
  search.Search("rest", &hits);  // exact words come with cost 0
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(lex->Key(hits[0].entry), "rest");
  EXPECT_EQ(hits[0].cost, 0);
  search.Search("", &hits);  // next word: the most frequent words
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(lex->Key(hits[0].entry), "the");
  search.Search(std::string(CandidateSearch::kMaxTyped + 1, 'a'), &hits);
  EXPECT_TRUE(hits.empty());
  search.Search("zzzzzzz", &hits);
  EXPECT_TRUE(hits.empty());
}

TEST_F(CandidateSearchTest, CapsAndOrders) {
  std::unique_ptr<Lexicon> lex;
  ASSERT_TRUE(Lexicon::FromBytes(testing::FixtureLexiconBytes(), &lex).ok());
  CandidateSearch::Options options;
  options.max_candidates = 10;
  CandidateSearch search(lex.get(), costs_.get(), options);
  std::vector<SearchHit> hits;
  search.Search("t", &hits);
  ASSERT_EQ(hits.size(), 10u);
  std::set<uint32_t> seen;
  for (size_t i = 0; i < hits.size(); ++i) {
    EXPECT_TRUE(seen.insert(hits[i].entry).second) << "duplicate";
    if (i > 0) {
      EXPECT_GE(hits[i - 1].score, hits[i].score);
    }
  }
}

}  // namespace
}  // namespace keydecide
