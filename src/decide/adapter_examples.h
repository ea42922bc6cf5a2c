// The fine-tuning examples of a text (model/adapter_trainer.h): the text is typed, untimed,
// into a TypedText with the language's composition rule and a ModelTrack, as a session would, and
// at the first `prefixes` keys of each word (0: the word start, where the next word is predicted;
// 1: after its first letter;
// ...) the hidden state becomes an example whose target is the word, when the model's
// vocabulary has it. So the adapter learns on the very states it will correct.

#ifndef KEYDECIDE_DECIDE_ADAPTER_EXAMPLES_H_
#define KEYDECIDE_DECIDE_ADAPTER_EXAMPLES_H_

#include <atomic>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "decide/typed_text.h"
#include "keydecide/user_store.h"
#include "model/adapter_trainer.h"
#include "model/transformer.h"

namespace keydecide {

struct AdapterExampleOptions {
  int prefixes = 2;  // examples per word: at its start and after each of its first letters
  int top_k = 128;   // the base's words each example keeps beside its target
  size_t max_examples = 40000;
  // Stops early (between two words) once it reads true; may be null.
  const std::atomic<bool>* cancel = nullptr;
};

// Appends the examples of `text` (lines of words; a new line starts a new context), typed
// with `rule` (the session's, e.g. kEnglishComposition), to *out, until it holds
// options.max_examples. REQUIRES: rule not null.
void AddAdapterExamples(const Transformer& model, const CompositionRule* rule,
                        std::string_view text, const AdapterExampleOptions& options,
                        std::vector<AdapterExample>* out);

// The recent words (UserStore::ListRecent) as text: words joined by spaces, a new line
// where a sentence started (an empty `previous`).
std::string RecentText(const std::vector<RecentWord>& words);

// A language's way from its recent words to examples: what FineTuner runs each round.
struct AdapterExampleSource {
  std::function<std::string(const std::vector<RecentWord>&)> text;
  std::function<void(std::string_view, const AdapterExampleOptions&, std::vector<AdapterExample>*)>
      examples;
};
// Languages typed word by word (RecentText, AddAdapterExamples; a pack's own source, such as
// the pinyin pack's ZhAdapterExamples, lives in its folder). REQUIRES: what they point to
// outlives the source.
AdapterExampleSource TypedAdapterExamples(const Transformer* model, const CompositionRule* rule);

}  // namespace keydecide

#endif  // KEYDECIDE_DECIDE_ADAPTER_EXAMPLES_H_
