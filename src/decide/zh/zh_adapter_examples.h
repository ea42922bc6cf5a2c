// The pinyin pack's fine-tuning examples: the zh model's other stream. Each line of committed
// text is split into the model's words as the session reads committed text (ZhContext), and the
// hidden state before each Chinese word, after [BOS] [APP] and the words before it, becomes an
// example whose target is that word: the states SentenceLm scores conversions with.

#ifndef KEYDECIDE_DECIDE_ZH_ZH_ADAPTER_EXAMPLES_H_
#define KEYDECIDE_DECIDE_ZH_ZH_ADAPTER_EXAMPLES_H_

#include <string>
#include <string_view>
#include <vector>

#include "decide/adapter_examples.h"
#include "decide/zh/zh_context.h"

namespace keydecide {

// Chinese: the examples of `text` (lines of committed text; each line a new context) on the
// zh model's sentence stream, until *out holds options.max_examples (options.prefixes is not
// read). A line longer than the model's window is read in windows, each after at most
// ModelTrack::kMaxContextTokens words of the one before, as a session keeps them.
void AddZhAdapterExamples(const Transformer& model, const ZhContext& context, std::string_view text,
                          const AdapterExampleOptions& options, std::vector<AdapterExample>* out);

// Chinese recent words as text: joined without spaces, a new line where a sentence started. A
// sentence the person picked is learned as one word after its own words (ZhSession), with an
// empty `previous`; when its text is what the text already ends with, it is not repeated.
std::string RecentZhText(const std::vector<RecentWord>& words);

// The pinyin pack's source for FineTuner (RecentZhText, AddZhAdapterExamples). REQUIRES: what
// they point to outlives the source.
AdapterExampleSource ZhAdapterExamples(const Transformer* model, const ZhContext* context);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ZH_ZH_ADAPTER_EXAMPLES_H_
