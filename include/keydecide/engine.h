// Engine and Session: the C++ API of keydecide.
//
//   std::unique_ptr<keydecide::Engine> engine;
//   Status s = keydecide::Engine::Open(keydecide::EngineOptions(), &engine);
//   std::unique_ptr<keydecide::Session> session = engine->NewSession({});
//   session->Type("Hello wor");
//   keydecide::Decision d;
//   session->Decide(3, &d);   // d.candidates[0].text == "world", ...
//
// Thread-safety: an Engine is immutable after Open and may be shared by any number of
// threads; NewSession may be called concurrently. A Session must be used by one thread at
// a time (it holds per-field state and scratch buffers).

#ifndef KEYDECIDE_ENGINE_H_
#define KEYDECIDE_ENGINE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keydecide/decision.h"
#include "keydecide/export.h"
#include "keydecide/options.h"
#include "keydecide/pack_traits.h"
#include "keydecide/status.h"

namespace keydecide {

// One text field being typed into.
class KD_API Session {
 public:
  virtual ~Session() = default;

  // Types `text` at the cursor, one keystroke per character: letters extend the word being
  // composed; a space or punctuation ends it. `t_ms` is when the key was pressed, in
  // milliseconds of a monotonic clock (any origin; CLOCK_MONOTONIC in the host is right);
  // nullopt types untimed. With times, the model reads the interval since the previous key,
  // as it was trained to (a hesitation, a fast familiar word); untimed keys get a typical
  // typist's pace. Several characters in one call are one key each, all at t_ms. On invalid
  // UTF-8 returns InvalidArgument and leaves the session unchanged.
  virtual Status Type(std::string_view text, std::optional<int64_t> t_ms) = 0;
  Status Type(std::string_view text) { return Type(text, std::nullopt); }

  // Deletes the character before the cursor (nothing at the start of the text). Deleting
  // back into a finished word makes it the composition again. The next key typed carries
  // the model's after-backspace flag.
  virtual Status Backspace() = 0;

  // Replaces the word being composed with `word` (the person picked a candidate). No space
  // is added. InvalidArgument for invalid UTF-8, white space, or more than 256 bytes (4096 in a
  // Chinese session, whose whole-sentence candidates may be that long).
  virtual Status Accept(std::string_view word) = 0;

  // The person picked the candidate `id` (Candidate::id) of this session's last Decide: does what
  // Accept(that candidate's text) does (no space is added: PackTraits::pick_adds_space says
  // whether the host adds one), but knows which candidate it was without matching its text
  // again. In a Chinese session two candidates may share a text and stand for different letters
  // (a word for some of them, a sentence for all): Pick converts the letters of the one picked.
  // Hosts should pick by id; Accept stays for text the host made itself. InvalidArgument, and
  // nothing changed, when `id` is stale: not offered by the last Decide, or any edit (Type,
  // Backspace, SetContext, Accept, AcceptCorrection, Pick) since. NotSupported from a Session
  // that does not implement it (the library's sessions all do).
  virtual Status Pick(uint32_t id) {
    (void)id;
    return Status::NotSupported("this session cannot pick by candidate id");
  }

  // The host applied Decision::autocorrect: replaces the word being composed with
  // `replacement`, as Accept does, and remembers the letters as typed, so the correction can be
  // undone. When the person then deletes back to the end of the replaced word (Backspace over
  // the space or punctuation that ended it), the next Decide offers the typed letters first
  // (CandidateKind::kTyped) and does not autocorrect that word again there. Accepting them
  // (Accept with those letters) undoes the correction: with the user store the word is then
  // learned as the person's own and never autocorrected again (never in a no_learn session).
  // Typing on, another Accept or SetContext forgets the correction. InvalidArgument as for
  // Accept, or when no word is being composed. Packs without autocorrect (zh) Accept.
  virtual Status AcceptCorrection(std::string_view replacement) { return Accept(replacement); }

  // Replaces all text before the cursor (the host moved the cursor or the field changed).
  // Invalid UTF-8 is refused as in Type.
  virtual Status SetContext(std::string_view text) = 0;

  // Fills *out with up to `max_candidates` candidates for the current state, best first,
  // and the stage timings. Reuses *out's storage: keep one Decision per session and the
  // call does not allocate once warm. InvalidArgument if max_candidates < 0; more than
  // 200 are capped at 200.
  virtual Status Decide(int max_candidates, Decision* out) = 0;

  // The costliest rung of the latency ladder (Tier in decision.h) that Decide may use from
  // now on; a rung this engine cannot serve (no model, no smaller model) falls to the next
  // cheaper one. Default kFullModel. The runtime's latency governor sets it; Decision::tier
  // says which rung served each decision.
  virtual void SetTier(Tier tier) { (void)tier; }

  // The text before the cursor that the session keeps (the most recent few KB).
  virtual std::string_view text() const = 0;
  // The letters of the word being typed, a suffix of text().
  virtual std::string_view composition() const = 0;
};

class KD_API Engine {
 public:
  // Loads the language pack named by `options` (lexicon mapped, keyboard layout parsed)
  // and warms it up. On success stores the engine in *out. On failure returns the reason
  // (NotFound for missing files, Corruption for malformed ones, InvalidArgument for bad
  // options) and leaves *out untouched.
  static Status Open(const EngineOptions& options, std::unique_ptr<Engine>* out);

  virtual ~Engine() = default;

  // A new, empty session. The session must not outlive the engine.
  virtual std::unique_ptr<Session> NewSession(const SessionOptions& options) const = 0;

  // With EngineOptions::personal: writes the words sessions learned to the user store now and
  // lets sessions rank with them from their next Decide (a background thread does this every
  // EngineOptions::learn_flush_ms anyway, unless 0). Returns the store's status (OK without
  // personalisation).
  virtual Status FlushLearning() { return Status::OK(); }

  // With EngineOptions::fine_tune: flushes learning, then runs one fine-tuning round on the
  // caller's thread; sessions use the new adapter from their next Decide. *summary (may be
  // null) says what the round did. NotSupported without fine-tuning (off, no model, no store).
  virtual Status FineTune(std::string* summary) {
    (void)summary;
    return Status::NotSupported("fine-tuning is off");
  }

  struct Info {
    std::string language;
    std::string lexicon_path;
    size_t lexicon_words = 0;
    uint64_t lexicon_bytes = 0;
    std::string keyboard_layout;
    std::string scorer;            // "model" or "baseline-unigram", "+bigram" with the word bigram
    std::string model_path;        // empty without a model
    std::string small_model_path;  // the small-model rung's file; empty without one
    std::string popup_net_path;    // the popup network's file; empty without one
    std::string intent_ngrams_path;  // the intent n-grams' file; empty without one
    std::string model_weights;       // "f32", "q8", "q4g64+q8", ... (empty without a model)
    std::string simd_target;  // the kernels' instruction set, e.g. "avx3_dl" (KEYDECIDE_SIMD)
    size_t model_words = 0;
    std::vector<std::string> intent_labels;
    // "off", "on: <store path>", "on, not learning: <path>", or "unavailable: <reason>".
    std::string personal = "off";
    // What a host must know of the language (pack_traits.h).
    PackTraits traits;
    // The rungs of the latency ladder this engine can serve, costliest first (what its files
    // allow: without a model only kLexiconOnly). The runtime's governor steps along it.
    std::vector<Tier> ladder = {Tier::kLexiconOnly};
  };
  virtual Info info() const = 0;
};

// Where Engine::Open looks for a language pack when EngineOptions::model_dir is empty and
// $KEYDECIDE_MODEL_DIR is unset, in order: $XDG_DATA_HOME/keydecide/models
// (~/.local/share/keydecide/models without it), <dir>/keydecide/models for each dir of
// $XDG_DATA_DIRS (/usr/local/share:/usr/share without it), and the models installed with this
// library (<prefix>/share/keydecide/models, found from where the library or the program that
// links it was loaded, so a moved install works, and a build tree through its
// share/keydecide/models link). The first folder that holds <language>/lexicon.kdlex serves
// that language. Never a path of the machine that built the library.
KD_API std::vector<std::string> ModelSearchPath();

}  // namespace keydecide

#endif  // KEYDECIDE_ENGINE_H_
