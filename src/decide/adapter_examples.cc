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

AdapterExampleSource TypedAdapterExamples(const Transformer* model, const CompositionRule* rule) {
  return {RecentText, [model, rule](std::string_view text, const AdapterExampleOptions& options,
                                    std::vector<AdapterExample>* out) {
            AddAdapterExamples(*model, rule, text, options, out);
          }};
}

}  // namespace keydecide
