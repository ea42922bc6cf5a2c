// ZhState: the pinyin session's searches and what they found (zh_state.h).

#include "decide/zh/zh_state.h"

#include <algorithm>
#include <cmath>

#include "decide/model_track.h"
#include "decide/personal_ranking.h"
#include "decide/word_rule.h"
#include "decide/zh/pinyin_limits.h"
#include "lexicon/lexicon.h"
#include "model/transformer.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

bool ExtendsPinyin(char32_t cp, std::string_view composition) {
  return ExtendsWordAt(kPinyinWord, composition, cp);
}

size_t KeepStart(std::string_view /*text*/, size_t start) { return start; }

}  // namespace

const WordRule kPinyinWord = {
    .ascii_lowercase = true, .joiners = "'", .repeated_joiners = true, .reopens = false};
const CompositionRule kPinyinComposition = {ExtendsPinyin, KeepStart, kMaxComposition};

ZhState::ZhState(const Lexicon* lexicon_in, const WordBigram* bigram_in,
                 const PinyinCandidateSearch::Options& search_options,
                 const PinyinSentenceSearch::Options& sentence_options,
                 const ZhSessionModel& model_in, int app_in)
    : text(&kPinyinComposition),
      search(lexicon_in, search_options),
      sentence_search(lexicon_in, bigram_in, sentence_options),
      window(&sentence_search),
      lexicon(lexicon_in),
      bigram(bigram_in),
      model(model_in),
      app(app_in) {
  if (model.model != nullptr) {
    lm = std::make_unique<SentenceLm>(model.model, app, model.lm);
    context_words.reserve(kMaxContextBytes);
    sentence_words.reserve(PinyinLattice::kMaxTyped);
    context_text.reserve(kMaxContextBytes);
    context_buffer.reserve(kMaxContextBytes + kMaxSentenceBytes);
    context_scratch.Reserve(kMaxContextBytes);
  }
  ranked.reserve(kMaxSentencesRanked);
  searched.reserve(kMaxComposition + 8);
}

const UserWords* ZhState::user_words() const {
  return personal != nullptr ? personal->words().get() : nullptr;
}

void ZhState::SearchComposition() {
  const std::string_view typed = composition();
  // The model's context is part of what the ranking was for: the committed text may change
  // (a commit, a deletion into it) while the letters come back the same.
  if (UseModel()) UpdateModelContext();
  if (search_valid && typed == searched && context_word == searched_context &&
      context_version == searched_context_version) {
    return;
  }
  searched.assign(typed);
  searched_context = context_word;
  next.clear();  // 联想 is for an empty composition only
  user_bonus.context =
      bigram != nullptr && context_word != 0 ? bigram->VariantOf(context_word) : UserWords::kNoTag;
  // A long composition: its early part fixed, the sentences for the rest, the words for its
  // start. Else one lattice for both searches. Not convertible (a byte other than a-z and '):
  // no candidates, the searches leave their lists empty.
  const bool windowed = window.Update(typed, context_word).ok() && window.live_begin() > 0;
  if (windowed) {
    (void)search.Search(typed.substr(0, PinyinWindow::kWindow));
    (void)sentence_search.Search(typed.substr(window.live_begin()), window.live_context());
  } else if (search.Search(typed).ok()) {
    sentence_search.Search(search.lattice(), typed, context_word);
  } else {
    (void)sentence_search.Search(typed, context_word);
  }
  // The model reads the fixed part as context (UpdateModelContext).
  if (UseModel()) UpdateModelContext();
  searched_context_version = context_version;
  RankSentences();
  search_valid = true;
}

void ZhState::UpdateModelContext() {
  std::string_view committed = text.text().substr(0, text.composition_start());
  if (const size_t nl = committed.rfind('\n'); nl != std::string_view::npos) {
    committed.remove_prefix(nl + 1);
  }
  if (window.live_begin() > 0 && !composition().empty()) {  // then the fixed words
    if (committed.size() > kMaxContextBytes) {              // (within context_buffer's reserve)
      committed.remove_prefix(
          utf8::BoundaryAtOrAfter(committed, committed.size() - kMaxContextBytes));
    }
    context_buffer.assign(committed);
    context_buffer.append(window.fixed_text());
    committed = context_buffer;
  }
  if (committed.size() > kMaxContextBytes) {  // the model keeps the newest words only
    committed.remove_prefix(
        utf8::BoundaryAtOrAfter(committed, committed.size() - kMaxContextBytes));
  }
  if (committed == context_text) return;
  ++context_version;
  context_text.assign(committed);
  context_words.clear();
  model.context->Tokenize(committed, &context_scratch, &context_words);
  const size_t keep = std::min(context_words.size(), kMaxContextWords);
  lm->SetContext(std::span(context_words).last(keep));
}

void ZhState::RankSentences() {
  const std::span<const PinyinSentence> found = sentence_search.sentences();
  ranked.assign(found.begin(), found.end());
  sentences_model_failed = false;
  const size_t rescored = std::min(ranked.size(), kSentencesRescored);
  if (!UseModel() || model.sentence_weight == 0 || rescored < 2) return;
  const Transformer& transformer = *model.model;
  for (PinyinSentence& s : std::span(ranked).first(rescored)) {
    sentence_words.clear();
    float oov_share = 0;  // words outside the vocabulary: <unk>, shared out by their count
    for (const PinyinSentenceWord& w : s.words) {
      const int id = transformer.vocab().Find(w.text);
      sentence_words.push_back(id);
      if (id == ModelConfig::kUnkWord) {
        // A learned word beyond the lexicon counts as its rarest words do.
        const uint32_t count =
            w.entry == lexicon::kNoEntry ? 1 : lexicon->Variants(w.entry)[w.variant].count;
        oov_share +=
            std::log(static_cast<float>(std::max<uint32_t>(count, 1))) - model.log_oov_count;
      }
    }
    const float log_p = lm->Score(sentence_words);
    if (!std::isfinite(log_p)) {  // the model overflowed on these words: the bigram's order
      ranked.assign(found.begin(), found.end());
      sentences_model_failed = true;
      return;
    }
    s.score += model.sentence_weight * (log_p + oov_share);
  }
  // Only the rescored ones change places; the others, unscored, stay behind them. (An insertion
  // sort: stable, and unlike std::stable_sort it needs no buffer.)
  for (size_t i = 1; i < rescored; ++i) {
    for (size_t j = i; j > 0 && ranked[j].score > ranked[j - 1].score; --j) {
      std::swap(ranked[j], ranked[j - 1]);
    }
  }
}

std::span<const PinyinSentence> ZhState::OfferedSentences() const {
  const std::span<const PinyinSentence> sentences = ranked;
  size_t n = 0;
  // After a fixed part, every sentence has several words.
  const bool fixed = window.live_begin() > 0 && !composition().empty();
  while (n < sentences.size() && n < kSentencesOffered &&
         (fixed || sentences[n].words.size() >= 2)) {
    ++n;
  }
  return sentences.first(n);
}

bool ZhState::IsSentence(const PinyinSentence& sentence, std::string_view offered) const {
  const std::string_view fixed =
      window.live_begin() > 0 && !composition().empty() ? window.fixed_text() : "";
  return offered.size() == fixed.size() + sentence.text.size() && offered.starts_with(fixed) &&
         offered.ends_with(sentence.text);
}

bool ZhState::IsOffered(std::span<const PinyinSentence> sentences, std::string_view offered) const {
  return std::any_of(sentences.begin(), sentences.end(),
                     [&](const PinyinSentence& s) { return IsSentence(s, offered); });
}

bool ZhState::IsUserCandidate(std::string_view offered) const {
  const auto is = [&](const UserCandidate& c) {
    return user_words()->word(c.word).spelling == offered;
  };
  return std::any_of(user_first.begin(), user_first.end(), is) ||
         std::any_of(user_prefix.begin(), user_prefix.end(), is);
}

void ZhState::FindUserWords() {
  user_first.clear();
  user_prefix.clear();
  if (user_words() == nullptr || user_words()->size() == 0) return;
  const std::string_view typed = composition();
  user_letters.clear();
  for (const char c : typed) {
    if (c != '\'') user_letters.push_back(c);
  }
  // The whole composition: the person's heaviest word for these letters (or initials) first,
  // and the next while they are words the search alone would not put there.
  const auto trusted = [&](const UserWords::Word& w) {
    return w.offered() && (w.picks > 0 || w.tag == UserWords::kNoTag);
  };
  // The heaviest of each list (by overall weight), heaviest first in this app type
  // (UserBonus::UserProb), a word for the whole letters before one for their initials on a tie.
  const std::span<const uint32_t> full = user_words()->WithLetters(user_letters);
  const std::span<const uint32_t> initials = user_letters.size() >= 2
                                                 ? user_words()->WithInitials(user_letters)
                                                 : std::span<const uint32_t>();
  user_order.clear();
  for (const std::span<const uint32_t> list : {full, initials}) {
    for (const uint32_t i : list.first(std::min(list.size(), kMaxUserOrder))) {
      user_order.push_back({i, user_bonus.UserProb(user_words()->word(i))});
    }
  }
  std::stable_sort(user_order.begin(), user_order.end(),
                   [](const UserOrder& x, const UserOrder& y) { return x.p > y.p; });
  for (const UserOrder& o : user_order) {
    if (user_first.size() == kMaxUserFirst) break;
    const uint32_t i = o.word;
    const UserWords::Word& w = user_words()->word(i);
    if (!w.offered()) continue;
    if (!trusted(w)) break;
    if (std::none_of(user_first.begin(), user_first.end(),
                     [&](const UserCandidate& c) { return c.word == i; })) {
      user_first.push_back({i, static_cast<uint32_t>(typed.size())});
    }
  }
  // Starts of the composition, longest first (letters only: a typed apostrophe ends the match).
  const size_t letters = std::min({typed.find('\''), typed.size(), kMaxUserLetters});
  for (size_t n = std::min(letters, typed.size() - 1); n >= kMinUserPrefixLetters; --n) {
    for (const uint32_t i : user_words()->WithLetters(typed.substr(0, n))) {
      if (user_prefix.size() == kMaxUserPrefix) return;
      if (trusted(user_words()->word(i))) user_prefix.push_back({i, static_cast<uint32_t>(n)});
    }
  }
}

}  // namespace keydecide
