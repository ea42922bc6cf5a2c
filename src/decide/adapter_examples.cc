#include "decide/adapter_examples.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "decide/model_track.h"
#include "decide/typed_text.h"
#include "model/kv_cache.h"
#include "text/letter_case.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

// The word a token of the text is typed as: its letters and apostrophes up to the first
// other character, lower-cased ("Don't," -> "don't"; "(see" -> "").
std::string TokenWord(std::string_view token) {
  size_t n = 0;
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  while (n < token.size() && (letter(token[n]) || (n > 0 && token[n] == '\''))) ++n;
  std::string lower;
  AppendLowerUtf8(token.substr(0, n), &lower);
  return lower;
}

}  // namespace

void AddAdapterExamples(const Transformer& model, const CompositionRule* rule,
                        std::string_view text, const AdapterExampleOptions& options,
                        std::vector<AdapterExample>* out) {
  TypedText typed(rule);
  ModelTrack track(&model, /*app=*/0);
  std::vector<float> logits;
  // Types the character at text[*at] and moves past it.
  auto type = [&](std::string_view s, size_t* at) {
    const size_t start = *at;
    char32_t cp = 0;
    if (!utf8::Decode(s, at, &cp)) *at = start + 1, cp = 0xFFFD;
    typed.Append(s.substr(start, *at - start), cp, std::nullopt);
    if (const size_t cut = typed.TrimToLimit(); cut > 0) track.OnTextTrimmed(cut);
  };
  size_t pos = 0;
  auto cancelled = [&] {
    return options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed);
  };
  while (pos < text.size() && out->size() < options.max_examples && !cancelled()) {
    const char c = text[pos];
    if (c == ' ' || c == '\n' || c == '\t') {
      type(text, &pos);
      continue;
    }
    size_t end = pos;
    while (end < text.size() && text[end] != ' ' && text[end] != '\n' && text[end] != '\t') ++end;
    const std::string_view token = text.substr(pos, end - pos);
    const std::string word = TokenWord(token);
    const int target = word.empty() ? ModelConfig::kUnkWord : model.vocab().Find(word);
    const bool learnable = target != ModelConfig::kUnkWord && model.vocab().IsLetterWord(target);
    for (size_t i = 0; i < token.size();) {
      if (learnable && i < static_cast<size_t>(options.prefixes) && i < word.size() &&
          out->size() < options.max_examples) {
        const float* y = track.Sync(typed);
        out->push_back(MakeAdapterExample(model, y, target, options.top_k, &logits));
      }
      type(token, &i);
    }
    pos = end;
  }
}

std::string RecentText(const std::vector<RecentWord>& words) {
  std::string text;
  for (const RecentWord& w : words) {
    if (!text.empty()) text += w.previous.empty() ? '\n' : ' ';
    text += w.word;
  }
  return text;
}

// Homophones an example keeps at most (the most frequent: the vocabulary is in frequency order).
constexpr size_t kMaxHomophones = 32;

void AddZhAdapterExamples(const Transformer& model, const ZhContext& context, std::string_view text,
                          const AdapterExampleOptions& options, std::vector<AdapterExample>* out) {
  const ModelConfig& c = model.config();
  const size_t room = static_cast<size_t>(c.max_len) - 2;  // after [BOS] [APP]
  const size_t max_context = std::min<size_t>(ModelTrack::kMaxContextTokens, room - 1);
  // Each vocabulary word's homophones (the same reading): what a conversion chooses between.
  std::unordered_map<std::string_view, std::vector<int32_t>> by_reading;
  for (int w = 0; w < model.n_words(); ++w) {
    if (!model.vocab().Reading(w).empty()) by_reading[model.vocab().Reading(w)].push_back(w);
  }
  KvCache cache(c);
  ZhContext::Scratch scratch;
  std::vector<int32_t> words;
  std::vector<TokenInput> seq;
  std::vector<float> hidden(static_cast<size_t>(c.max_len) * c.d_model), logits;
  auto cancelled = [&] {
    return options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed);
  };
  while (!text.empty() && out->size() < options.max_examples && !cancelled()) {
    const size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    words.clear();
    scratch.Reserve(line.size());
    context.Tokenize(line, &scratch, &words);
    for (size_t next = 0; next < words.size() && out->size() < options.max_examples;) {
      const size_t before = std::min(next, max_context);
      const size_t take = std::min(words.size() - next, room - before);
      seq.assign({{ModelConfig::kBos, 0, 0}, {ModelConfig::kFirstApp, 0, 0}});
      for (size_t i = next - before; i < next + take; ++i) {
        seq.push_back({ModelConfig::kWordOffset + words[i], 0, 0});
      }
      cache.Clear();
      model.ExtendAll(seq, &cache, hidden.data());
      for (size_t j = 0; j < take && out->size() < options.max_examples; ++j) {
        const int32_t target = words[next + j];
        // Only Chinese words: the conversions' words, what SentenceLm's scores decide between.
        if (target == ModelConfig::kUnkWord || std::isnan(context.WordLogProb(target))) continue;
        const float* y = &hidden[(1 + before + j) * c.d_model];  // the token before the target
        AdapterExample& e =
            out->emplace_back(MakeAdapterExample(model, y, target, options.top_k, &logits));
        // Beside the base's likeliest words, the target's homophones (logits holds every
        // word's base logit): the adapter learns which of them this person means here.
        const auto homophones = by_reading.find(model.vocab().Reading(target));
        if (homophones == by_reading.end()) continue;
        size_t added = 0;
        for (int32_t h : homophones->second) {
          if (added == kMaxHomophones) break;
          if (std::find(e.words.begin(), e.words.end(), h) != e.words.end()) continue;
          e.words.push_back(h);
          e.base.push_back(logits[h]);
          ++added;
        }
      }
      next += take;
    }
  }
}

std::string RecentZhText(const std::vector<RecentWord>& words) {
  std::string text;
  std::vector<size_t> starts;  // of the words on the last line
  for (const RecentWord& w : words) {
    if (w.previous.empty()) {
      // A picked sentence: the text ends with it, from where a word two or more back started.
      const size_t at = text.size() - std::min(text.size(), w.word.size());
      if (starts.size() >= 2 && std::string_view(text).substr(at) == w.word &&
          std::find(starts.begin(), starts.end() - 1, at) != starts.end() - 1) {
        continue;
      }
      if (!text.empty()) text += '\n';
      starts.clear();
    }
    starts.push_back(text.size());
    text += w.word;
  }
  return text;
}

AdapterExampleSource TypedAdapterExamples(const Transformer* model, const CompositionRule* rule) {
  return {RecentText, [model, rule](std::string_view text, const AdapterExampleOptions& options,
                                    std::vector<AdapterExample>* out) {
            AddAdapterExamples(*model, rule, text, options, out);
          }};
}

AdapterExampleSource ZhAdapterExamples(const Transformer* model, const ZhContext* context) {
  return {RecentZhText,
          [model, context](std::string_view text, const AdapterExampleOptions& options,
                           std::vector<AdapterExample>* out) {
            AddZhAdapterExamples(*model, *context, text, options, out);
          }};
}

}  // namespace keydecide
