#include "decide/word/word_state.h"

#include "decide/text_limits.h"
#include "decide/word/word_pack.h"
#include "decide/word/word_pack_spec.h"

namespace keydecide {

WordState::WordState(const WordPack* word_pack, const SessionOptions& session_options)
    : pack(word_pack),
      options(session_options),
      autocorrect_bars(AutocorrectBarsFor(session_options)),
      text(word_pack->spec().rule),
      history(&word_pack->lexicon()),
      search(&word_pack->lexicon(), &word_pack->costs(), word_pack->search_options()) {
  options.autocorrect_threshold = autocorrect_bars.word;  // the level's, when not explicit
  correction.typed.reserve(kMaxAcceptBytes);
  correction.key.reserve(2 * kMaxAcceptBytes);  // lower-casing never more than doubles it
  const int app = static_cast<int>(options.app);
  if (const Transformer* typing = pack->model()) {
    model.track = std::make_unique<ModelTrack>(typing, app);
    model.autocorrect = std::make_unique<Autocorrect>(typing, &pack->lexicon(),
                                                      pack->word_entries(), pack->known_words());
  }
  if (const Transformer* small = pack->small_model()) {
    model.small_track = std::make_unique<ModelTrack>(small, app);
    model.small_autocorrect = std::make_unique<Autocorrect>(
        small, &pack->lexicon(), pack->word_entries(), pack->known_words());
  }
}

bool WordState::AtCorrectedWord() const {
  return correction.end != std::string::npos && correction.end == text.text().size() &&
         correction.start == text.composition_start();
}

}  // namespace keydecide
