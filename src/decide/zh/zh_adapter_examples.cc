// The pinyin pack's fine-tuning examples (zh_adapter_examples.h).

#include "decide/zh/zh_adapter_examples.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "decide/model_track.h"
#include "model/kv_cache.h"
#include "text/utf8.h"

namespace keydecide {

namespace {

// Homophones an example keeps at most (the most frequent: the vocabulary is in frequency order).
constexpr size_t kMaxHomophones = 32;

}  // namespace

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

AdapterExampleSource ZhAdapterExamples(const Transformer* model, const ZhContext* context) {
  return {RecentZhText,
          [model, context](std::string_view text, const AdapterExampleOptions& options,
                           std::vector<AdapterExample>* out) {
            AddZhAdapterExamples(*model, *context, text, options, out);
          }};
}

}  // namespace keydecide
